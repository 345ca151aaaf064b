// The Worker's entry point. The handler, its helpers and their documentation are in
// proxy.mjs; each isolate gets one proxy, hence one in-isolate rate-limit window. The
// runtime finds Durable Object classes among the entry module's named exports: ProxyLimits
// is the LIMITS binding's class (limits-object.mjs), used only when wrangler.toml binds it.
import { createProxy } from "./proxy.mjs";

export { ProxyLimits } from "./limits-object.mjs";

export default createProxy();
