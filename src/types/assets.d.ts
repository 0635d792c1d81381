// Files imported `with { type: "file" }` resolve to a path (inside the binary when compiled).
declare module "*.wasm" {
  const path: string;
  export default path;
}
declare module "*.data" {
  const path: string;
  export default path;
}
