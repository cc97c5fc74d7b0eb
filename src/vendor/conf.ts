// Loaded only to write the config file or to migrate it, from its own bundle (scripts/build.mjs):
// conf with ajv and atomically cost far more than a command's read of the file (ARCHITECTURE.md).
export { default as Conf } from 'conf';
