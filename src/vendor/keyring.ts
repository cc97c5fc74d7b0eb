// Loaded on first use, from its own file (scripts/build.mjs): the OS keychain's binding, for a
// profile whose key is kept there. Its native part stays a package of its own, outside the bundle,
// loaded with require(): importing this CommonJS package cost several times as much (this file
// loaded in 6–29 ms, the import in 18–115 ms, six alternating runs each on a busy 2-core machine).
import { createRequire } from 'node:module';
import type * as Binding from '@napi-rs/keyring';

export const { AsyncEntry } = createRequire(import.meta.url)('@napi-rs/keyring') as typeof Binding;
