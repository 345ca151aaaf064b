// node bundle-has.mjs BUNDLE_URL SECTION_URL WORD: fails unless the served bundle has a
// section at SECTION_URL whose text contains WORD (the dev server re-indexed an edit).
const [bundleUrl, sectionUrl, word] = process.argv.slice(2);
const get = async (name) => {
  const res = await fetch(new URL(name, bundleUrl));
  if (!res.ok) throw new Error(`${name}: HTTP ${res.status}`);
  return res.json();
};
const manifest = await get("manifest.json");
const chunks = await get(manifest.files.chunks.name);
const list = Array.isArray(chunks) ? chunks : chunks.chunks;
const index = list.findIndex((c) => c.url === sectionUrl);
if (index < 0) throw new Error(`the served index has no section ${sectionUrl} (${list.length} sections)`);
const texts = await Promise.all((manifest.files.text ?? []).map((f) => get(f.name ?? f)));
if (!JSON.stringify(texts).includes(word)) throw new Error(`no text of the served index contains "${word}"`);
console.log(`  the served index has ${sectionUrl} (section ${index + 1} of ${list.length}) with "${word}"`);
