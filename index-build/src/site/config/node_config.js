// Evaluates a Docusaurus config (docusaurus.config.{js,mjs,cjs,ts,mts,cts})
// and prints the values that decide the site's URLs as one JSON line after
// a marker. Run by Lectern's index-build with `node -e`, after the plugin's
// config-summary.js (which defines summarizeConfig: one definition for this
// and for docusaurus-plugin-lectern, which passes the config Docusaurus has
// loaded instead); the config path comes in LECTERN_CONFIG_FILE, the marker
// to print before the JSON in LECTERN_RESULT_MARKER, and the working directory
// is the site folder.
//
// The stand-alone CLI keeps this evaluator rather than jiti: it also indexes
// checkouts without node_modules (the eval corpora, CI), where every import a
// config makes would fail under jiti, and here becomes a harmless stub.
//
// A config is often evaluated without its site's node_modules, so every
// package or local file that fails to load becomes a harmless stub (a Proxy
// that can be called, constructed, read and spread), and so does a file that
// `fs` cannot find. ESM and TypeScript are turned into CommonJS with the
// site's own `typescript` package when it is installed, else with the small
// rewriters below (imports/exports, type annotations), which cover what
// configs contain, not all of TypeScript.

const fs = require('fs');
const path = require('path');
const vm = require('vm');
const Module = require('module');
const { pathToFileURL } = require('url');

const MARKER = process.env.LECTERN_RESULT_MARKER;
const configFile = path.resolve(process.env.LECTERN_CONFIG_FILE || 'docusaurus.config.js');
const warnings = [];

function warn(message) {
  if (warnings.length < 40 && !warnings.includes(message)) warnings.push(message);
}

// ---------------------------------------------------------------- stubs

const STUB = (function makeStub() {
  // A strict function: its only own properties are configurable or
  // writable, so the proxy may answer anything for them.
  const target = function stub() {};
  let proxy;
  proxy = new Proxy(target, {
    get(_target, key) {
      if (key === Symbol.toPrimitive) return (hint) => (hint === 'number' ? 0 : '');
      if (key === Symbol.iterator) return function* empty() {};
      if (key === '__lecternStub') return true;
      if (typeof key === 'symbol' || key === 'then') return undefined;
      if (key === 'toString' || key === 'valueOf' || key === 'toJSON') return () => '';
      if (key === 'length') return 0;
      return proxy;
    },
    apply: () => proxy,
    construct: () => proxy,
    set: () => true,
    has: () => false,
    deleteProperty: () => true,
  });
  return proxy;
})();

function isStub(value) {
  try {
    return typeof value === 'function' && value.__lecternStub === true;
  } catch (_error) {
    return false;
  }
}

// `fs` that answers a stub for files that do not exist (a config reading a
// file that is not part of a docs checkout, e.g. `../crowdin.yaml`).
function tolerant(moduleObject, name) {
  const guarded = new Set(['readFileSync', 'readdirSync', 'statSync', 'lstatSync', 'realpathSync', 'readFile']);
  return new Proxy(moduleObject, {
    get(target, key) {
      const value = target[key];
      if (typeof value !== 'function' || !guarded.has(key)) return value;
      return function guardedCall(...args) {
        const missing = (error) => error && (error.code === 'ENOENT' || error.code === 'ENOTDIR');
        try {
          const result = value.apply(target, args);
          if (result && typeof result.then === 'function') {
            return result.catch((error) => {
              if (!missing(error)) throw error;
              warn(`${name}.${String(key)}(${String(args[0])}): no such file; using a stub`);
              return STUB;
            });
          }
          return result;
        } catch (error) {
          if (!missing(error)) throw error;
          warn(`${name}.${String(key)}(${String(args[0])}): no such file; using a stub`);
          return STUB;
        }
      };
    },
  });
}

const tolerantFs = tolerant(fs, 'fs');
const tolerantFsPromises = tolerant(fs.promises, 'fs.promises');

// ---------------------------------------------------------------- loading

const localModules = new Map();
const LOCAL_EXTENSIONS = ['', '.js', '.mjs', '.cjs', '.ts', '.mts', '.cts', '.json', '/index.js', '/index.ts', '/index.mjs'];

function isPathRequest(request) {
  return request.startsWith('./') || request.startsWith('../') || request === '.' || request === '..' || path.isAbsolute(request);
}

function resolveLocal(request, fromFile) {
  const base = path.resolve(path.dirname(fromFile), request);
  for (const extension of LOCAL_EXTENSIONS) {
    const candidate = base + extension;
    try {
      if (fs.statSync(candidate).isFile()) return candidate;
    } catch (_error) {
      // try the next extension
    }
  }
  return null;
}

function makeRequire(fromFile) {
  const nativeRequire = Module.createRequire(fromFile);
  const requireFn = function lecternRequire(request) {
    const bare = request.startsWith('node:') ? request.slice(5) : request;
    if (bare === 'fs') return tolerantFs;
    if (bare === 'fs/promises') return tolerantFsPromises;
    if (Module.isBuiltin(request)) return nativeRequire(request);
    if (isPathRequest(request)) {
      const file = resolveLocal(request, fromFile);
      if (!file) {
        warn(`${request} (from ${path.basename(fromFile)}) not found; using a stub`);
        return STUB;
      }
      return loadLocalFile(file);
    }
    try {
      return nativeRequire(request);
    } catch (error) {
      warn(`package ${request} could not be loaded (${error.code || error.message}); using a stub`);
      return STUB;
    }
  };
  requireFn.resolve = function resolve(request, options) {
    try {
      return nativeRequire.resolve(request, options);
    } catch (_error) {
      if (isPathRequest(request)) return resolveLocal(request, fromFile) || path.resolve(path.dirname(fromFile), request);
      return request;
    }
  };
  requireFn.cache = Object.create(null);
  return requireFn;
}

function loadLocalFile(file) {
  const cached = localModules.get(file);
  if (cached) return cached.exports;
  if (file.endsWith('.json')) {
    try {
      const value = JSON.parse(fs.readFileSync(file, 'utf8'));
      localModules.set(file, { exports: value });
      return value;
    } catch (error) {
      warn(`${path.basename(file)} is not valid JSON; using a stub`);
      return STUB;
    }
  }
  const moduleObject = { exports: {}, filename: file, id: file };
  localModules.set(file, moduleObject);
  try {
    runModule(file, moduleObject, false);
  } catch (error) {
    warn(`${path.basename(file)} failed (${firstLine(error)}); using a stub`);
    moduleObject.exports = STUB;
  }
  return moduleObject.exports;
}

function runModule(file, moduleObject, allowTopLevelAwait) {
  const code = toCommonJs(fs.readFileSync(file, 'utf8'), file);
  const parameters = 'exports, require, module, __filename, __dirname, __lecternImport, __lecternImportMeta';
  const wrapper = `(${allowTopLevelAwait ? 'async ' : ''}function (${parameters}) {${code}\n})`;
  const fn = vm.runInThisContext(wrapper, { filename: file });
  const requireFn = makeRequire(file);
  const importMeta = {
    url: pathToFileURL(file).href,
    dirname: path.dirname(file),
    filename: file,
    resolve: (specifier) => requireFn.resolve(specifier),
  };
  const dynamicImport = (specifier) =>
    Promise.resolve().then(() => {
      const loaded = requireFn(specifier);
      if (isStub(loaded) || (loaded && loaded.__esModule)) return loaded;
      return Object.assign({ default: loaded }, loaded);
    });
  return fn.call(moduleObject.exports, moduleObject.exports, requireFn, moduleObject, file, path.dirname(file), dynamicImport, importMeta);
}

// ---------------------------------------------------------------- transpiling

function siteTypescript() {
  try {
    return Module.createRequire(configFile)('typescript');
  } catch (_error) {
    return null;
  }
}

function toCommonJs(source, file) {
  let code = source.replace(/^#!.*/, '').replace(/\bimport\.meta\b/g, '__lecternImportMeta');
  const isTypeScript = /\.[cm]?tsx?$/.test(file);
  const looksLikeEsm = /^\s*(import|export)\b/m.test(code);
  if (!isTypeScript && !looksLikeEsm) return code;
  const ts = siteTypescript();
  if (ts) {
    try {
      const output = ts.transpileModule(code, {
        fileName: 'module.ts',
        compilerOptions: {
          module: ts.ModuleKind.CommonJS,
          target: ts.ScriptTarget.ES2020,
          esModuleInterop: true,
        },
      });
      return output.outputText;
    } catch (error) {
      warn(`typescript could not transpile ${path.basename(file)} (${firstLine(error)})`);
    }
  }
  if (isTypeScript) code = stripTypes(code);
  return esmToCommonJs(code).replace(/(^|[^.\w$])import\s*\(/g, '$1__lecternImport(');
}

// ESM statements → CommonJS. Statements must start a line, as in configs.
function esmToCommonJs(source) {
  let counter = 0;
  const trailer = [];
  const keepLines = (text) => '\n'.repeat((text.match(/\n/g) || []).length);
  let code = source;

  // import 'x';
  code = code.replace(/^([ \t]*)import\s*(['"])([^'"\n]+)\2[ \t]*(?:(?:with|assert)\s*\{[^}]*\})?[ \t]*;?/gm, (_m, indent, _q, request) =>
    `${indent}require(${JSON.stringify(request)});`,
  );
  // import … from 'x';
  code = code.replace(
    /^([ \t]*)import\s+([^;'"]*?)\s*from\s*(['"])([^'"\n]+)\3[ \t]*(?:(?:with|assert)\s*\{[^}]*\})?[ \t]*;?/gm,
    (match, indent, clause, _q, request) => {
      const trimmed = clause.trim();
      if (/^type\s/.test(trimmed)) return keepLines(match);
      const name = `__lecternModule${counter++}`;
      const parts = [`const ${name} = require(${JSON.stringify(request)});`];
      let rest = trimmed;
      const defaultMatch = /^([\w$]+)\s*(,|$)/.exec(rest);
      if (defaultMatch) {
        parts.push(`const ${defaultMatch[1]} = ${name} && ${name}.__esModule ? ${name}.default : ${name};`);
        rest = rest.slice(defaultMatch[0].length).trim();
      }
      const namespaceMatch = /^\*\s*as\s+([\w$]+)/.exec(rest);
      if (namespaceMatch) parts.push(`const ${namespaceMatch[1]} = ${name};`);
      const namedMatch = /^\{([\s\S]*)\}$/.exec(rest);
      if (namedMatch) {
        const bindings = namedMatch[1]
          .split(',')
          .map((item) => item.trim())
          .filter((item) => item && !/^type\s/.test(item))
          .map((item) => {
            const alias = /^([\w$'"]+)\s+as\s+([\w$]+)$/.exec(item);
            return alias ? `${alias[1]}: ${alias[2]}` : item;
          });
        if (bindings.length) parts.push(`const { ${bindings.join(', ')} } = ${name};`);
      }
      return indent + parts.join(' ') + keepLines(match);
    },
  );
  // export default …
  code = code.replace(/^([ \t]*)export\s+default\s+/gm, '$1module.exports.default = ');
  // export type / interface (TypeScript) are removed by stripTypes.
  // export const/let/var/function/class name
  code = code.replace(/^([ \t]*)export\s+((?:async\s+)?function\*?|class|const|let|var)\s+([\w$]+)/gm, (_m, indent, kind, name) => {
    trailer.push(`module.exports.${name} = ${name};`);
    return `${indent}${kind} ${name}`;
  });
  // export * from 'x';  export { a as b } from 'x';
  code = code.replace(/^([ \t]*)export\s*\*\s*(?:as\s+([\w$]+)\s*)?from\s*(['"])([^'"\n]+)\3[ \t]*;?/gm, (_m, indent, alias, _q, request) =>
    alias
      ? `${indent}module.exports.${alias} = require(${JSON.stringify(request)});`
      : `${indent}Object.assign(module.exports, require(${JSON.stringify(request)}));`,
  );
  code = code.replace(/^([ \t]*)export\s*\{([^}]*)\}\s*(?:from\s*(['"])([^'"\n]+)\3)?[ \t]*;?/gm, (match, indent, list, _q, request) => {
    const source = request ? `require(${JSON.stringify(request)})` : null;
    for (const item of list.split(',').map((s) => s.trim()).filter(Boolean)) {
      if (/^type\s/.test(item)) continue;
      const alias = /^([\w$]+)\s+as\s+([\w$]+)$/.exec(item);
      const local = alias ? alias[1] : item;
      const exported = alias ? alias[2] : item;
      trailer.push(`module.exports.${exported} = ${source ? `${source}.${local}` : local};`);
    }
    return indent + keepLines(match);
  });
  const isEsm = code !== source;
  return code + (isEsm ? `\nmodule.exports.__lecternEsm = true;\n${trailer.join('\n')}\n` : '');
}

// Enough TypeScript removal for configs: type-only statements, annotations
// on variables, `satisfies`, `as Type`, non-null `!`.
function stripTypes(source) {
  let code = source;
  code = code.replace(/^[ \t]*import\s+type\s[^;]*?from\s*(['"])[^'"\n]+\1[ \t]*;?/gm, (m) => '\n'.repeat((m.match(/\n/g) || []).length));
  code = code.replace(/^[ \t]*export\s+type\s*\{[^}]*\}[^;\n]*;?/gm, '');
  code = code.replace(/^[ \t]*declare\s[^\n]*\n/gm, '\n');
  code = removeDeclarations(code, /^[ \t]*(?:export\s+)?interface\s+[\w$]+[^{]*\{/gm, '{', '}');
  code = removeTypeAliases(code);
  code = removeVariableAnnotations(code);
  code = code.replace(/\s+satisfies\s+[\w$.]+(?:<[^>;\n]*>)?(?:\[\])*/g, '');
  code = code.replace(/\s+as\s+const\b/g, '');
  code = code.replace(/([\w$)\]}'"])\s+as\s+[A-Z][\w$.]*(?:<[^>;\n]*>)?(?:\[\])*/g, '$1');
  code = code.replace(/([\w$)\]])!(?=[.)\[,;\s])/g, '$1');
  return code;
}

function removeDeclarations(code, pattern, open, close) {
  let result = '';
  let last = 0;
  let match;
  pattern.lastIndex = 0;
  while ((match = pattern.exec(code))) {
    let depth = 1;
    let i = match.index + match[0].length;
    while (i < code.length && depth > 0) {
      if (code[i] === open) depth++;
      else if (code[i] === close) depth--;
      i++;
    }
    result += code.slice(last, match.index);
    last = i;
    pattern.lastIndex = i;
  }
  return result + code.slice(last);
}

function removeTypeAliases(code) {
  const pattern = /^[ \t]*(?:export\s+)?type\s+[\w$]+(?:<[^=]*>)?\s*=/gm;
  let result = '';
  let last = 0;
  let match;
  while ((match = pattern.exec(code))) {
    const end = endOfType(code, match.index + match[0].length, ';\n');
    result += code.slice(last, match.index);
    last = end < code.length && code[end] === ';' ? end + 1 : end;
    pattern.lastIndex = last;
  }
  return result + code.slice(last);
}

// `const x: Some<Type> = …` → `const x = …`
function removeVariableAnnotations(code) {
  const pattern = /\b(const|let|var)\s+([\w$]+)\s*:/g;
  let result = '';
  let last = 0;
  let match;
  while ((match = pattern.exec(code))) {
    const end = endOfType(code, match.index + match[0].length, '=;');
    if (code[end] !== '=') continue;
    result += code.slice(last, match.index) + `${match[1]} ${match[2]} `;
    last = end;
    pattern.lastIndex = end;
  }
  return result + code.slice(last);
}

// Index of the first character in `stops` outside brackets (not `=>`).
function endOfType(code, from, stops) {
  let depth = 0;
  for (let i = from; i < code.length; i++) {
    const c = code[i];
    if ('<([{'.includes(c)) depth++;
    else if ('>)]}'.includes(c) && !(c === '>' && code[i - 1] === '=')) depth--;
    else if (depth <= 0 && stops.includes(c) && !(c === '=' && code[i + 1] === '>')) {
      if (c === '\n' && /^\s*[|&]/.test(code.slice(i + 1, i + 40))) continue;
      return i;
    }
  }
  return code.length;
}

function firstLine(error) {
  return String((error && error.message) || error).split('\n')[0];
}

process.on('unhandledRejection', () => {});

(async () => {
  let result;
  try {
    const moduleObject = { exports: {}, filename: configFile, id: configFile };
    localModules.set(configFile, moduleObject);
    await runModule(configFile, moduleObject, true);
    let exported = moduleObject.exports;
    if (exported && !isStub(exported) && (exported.__esModule || exported.__lecternEsm) && 'default' in exported) {
      exported = exported.default;
    }
    if (typeof exported === 'function' && !isStub(exported)) exported = exported();
    exported = await exported;
    result = summarizeConfig(exported, { isStub, warnings });
  } catch (error) {
    result = { ok: false, error: firstLine(error), warnings };
  }
  process.stdout.write(`\n${MARKER}${JSON.stringify(result)}\n`, () => process.exit(0));
})();
