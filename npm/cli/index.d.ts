/** How to run the installed `lectern` binary. */
export interface ResolvedCli {
  /** The executable: the native binary, or Node for the portable wasm32-wasi build. */
  file: string;
  /** Arguments before the CLI's own (the wasi runner's path, or none). */
  args: string[];
  /** The environment to run it with ($LECTERN_MODEL_DIR set to the installed model). */
  env: Record<string, string | undefined>;
  /** The npm package the binary comes from. */
  via: string;
}

export interface PlatformEntry {
  name: string;
  os: string;
  cpu: string;
  libc?: "glibc" | "musl";
  rust: string;
  runner: string;
}

/** Throws, naming the supported platforms and what to install, when no binary fits. */
export function resolveCli(options?: { proc?: NodeJS.Process; env?: NodeJS.ProcessEnv; resolve?: NodeJS.RequireResolve }): ResolvedCli;
/** The installed model package's folder; throws naming the package when it is missing. */
export function modelDir(resolve?: NodeJS.RequireResolve): string;
export function currentPlatform(proc?: NodeJS.Process): PlatformEntry | null;
export function libcOf(proc?: NodeJS.Process): "glibc" | "musl" | null;
export const MODEL_PACKAGE: string;
export const WASI_PACKAGE: string;
