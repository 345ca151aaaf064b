// The Worker's entry point. The handler, its helpers and their documentation are in
// proxy.mjs; each isolate gets one proxy, hence one in-isolate rate-limit window.
import { createProxy } from "./proxy.mjs";

export default createProxy();
