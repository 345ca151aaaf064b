// node bundle-has.mjs BUNDLE_URL SECTION_URL WORD: fails unless the served bundle has a
// section at SECTION_URL whose text contains WORD (the dev server re-indexed an edit).
const [bundleUrl, sectionUrl, word] = process.argv.slice(2);
const get = async (name) => {
  const res = await fetch(new URL(name, bundleUrl));
  if (!res.ok) throw new Error(`${name}: HTTP ${res.status}`);
  return res.json();
};
const manifest = await get("manifest.json");
// Bundle format 5: chunk metadata and text together in shards named by number (`["<proof>",
// {metas, texts}]`, src/bundle/numbered_shards.rs); format 2: apart, in shards catalog pages name.
const numbered = manifest.files.chunk_shards;
const read = async () => {
  if (numbered) {
    const name = (n) => `chunks.${n}.${numbered.root.slice(0, 12)}.json`;
    const bodies = await Promise.all(Array.from({ length: numbered.shards }, (_, n) => get(name(n)).then(([, body]) => body)));
    return { list: bodies.flatMap((b) => b.metas), texts: bodies.map((b) => b.texts) };
  }
  const shards = (await Promise.all((manifest.files.chunks ?? []).map((page) => get(page.name)))).flat();
  return { list: (await Promise.all(shards.map((s) => get(s.meta.name)))).flat(), texts: await Promise.all(shards.map((s) => get(s.text.name))) };
};
const { list, texts } = await read();
const index = list.findIndex((c) => c.url === sectionUrl);
if (index < 0) throw new Error(`the served index has no section ${sectionUrl} (${list.length} sections)`);
if (!JSON.stringify(texts).includes(word)) throw new Error(`no text of the served index contains "${word}"`);
console.log(`  the served index has ${sectionUrl} (section ${index + 1} of ${list.length}) with "${word}"`);
