// Loaded on first use, from its own file (scripts/build.mjs): the OS keychain's binding, for a
// profile whose key is kept there. Its native part stays a package of its own, outside the bundle.
export { AsyncEntry } from '@napi-rs/keyring';
