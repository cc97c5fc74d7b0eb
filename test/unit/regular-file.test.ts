// readRegularFile (src/core/regular-file.ts): a file the tool keeps is read only when it is a regular
// file; anything else is refused by its kind, before it is opened. (A FIFO would block this worker if
// it were ever opened: it is tried with real processes, test/e2e/record-file-types.test.ts.)
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { NotRegularFileError, readRegularFile } from '../../src/core/regular-file.js';
import { perTest } from '../helpers/service-support.js';

const temp = perTest();

describe('readRegularFile', () => {
  it('reads a regular file, also through a symlink', () => {
    const dir = temp.scratch();
    fs.writeFileSync(path.join(dir, 'f'), 'text');
    fs.symlinkSync(path.join(dir, 'f'), path.join(dir, 'link'));
    expect([readRegularFile(path.join(dir, 'f')), readRegularFile(path.join(dir, 'link'))]).toEqual(['text', 'text']);
  });

  it('refuses a character device by its kind (a symlink to one too)', () => {
    const link = path.join(temp.scratch(), 'link');
    fs.symlinkSync('/dev/null', link);
    for (const file of ['/dev/null', link]) {
      expect(() => readRegularFile(file)).toThrow(new NotRegularFileError(file, 'a character device'));
    }
  });

  it('fails as fs does for a missing file (ENOENT) and a directory (EISDIR)', () => {
    const dir = temp.scratch();
    expect(() => readRegularFile(path.join(dir, 'none'))).toThrow(expect.objectContaining({ code: 'ENOENT' }));
    expect(() => readRegularFile(dir)).toThrow(expect.objectContaining({ code: 'EISDIR' }));
  });
});
