// A promise API over a bench worker's {id, type, ...} protocol.
export function spawn(url) {
  const worker = new Worker(url, { type: "module" });
  const pending = new Map();
  let next = 1;
  worker.onmessage = ({ data }) => {
    const p = pending.get(data.id);
    pending.delete(data.id);
    if (data.ok) p.resolve(data.result);
    else p.reject(new Error(data.error));
  };
  worker.onerror = (e) => {
    e.preventDefault();
    for (const p of pending.values()) p.reject(new Error(`worker ${url} failed: ${e.message}`));
    pending.clear();
  };
  const call = (type, args = {}) =>
    new Promise((resolve, reject) => {
      const id = next++;
      pending.set(id, { resolve, reject });
      worker.postMessage({ id, type, ...args });
    });
  return { call, terminate: () => worker.terminate() };
}
