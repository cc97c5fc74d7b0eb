// undici's own files, imported one by one by undici.ts (its typings cover the entry only)
declare module 'undici/lib/*' {
  const part: unknown;
  export default part;
}
