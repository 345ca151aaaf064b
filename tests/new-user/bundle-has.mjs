// node bundle-has.mjs BUNDLE_URL SECTION_URL WORD: fails unless the served bundle has a
// section at SECTION_URL whose text contains WORD (the dev server re-indexed an edit).
const [bundleUrl, sectionUrl, word] = process.argv.slice(2);
const get = async (name) => {
  const res = await fetch(new URL(name, bundleUrl));
  if (!res.ok) throw new Error(`${name}: HTTP ${res.status}`);
  return res.json();
};
const manifest = await get("manifest.json");
// Bundle format 2: chunk metadata and text are in shards that catalog pages name.
const shards = (await Promise.all((manifest.files.chunks ?? []).map((page) => get(page.name)))).flat();
const list = (await Promise.all(shards.map((s) => get(s.meta.name)))).flat();
const index = list.findIndex((c) => c.url === sectionUrl);
if (index < 0) throw new Error(`the served index has no section ${sectionUrl} (${list.length} sections)`);
const texts = await Promise.all(shards.map((s) => get(s.text.name)));
if (!JSON.stringify(texts).includes(word)) throw new Error(`no text of the served index contains "${word}"`);
console.log(`  the served index has ${sectionUrl} (section ${index + 1} of ${list.length}) with "${word}"`);
