// vitest setup file: after each test file, the temp dirs its helpers made are removed.
import { afterAll } from 'vitest';
import { removeFileDirs } from '../helpers/after-file.js';

afterAll(removeFileDirs);
