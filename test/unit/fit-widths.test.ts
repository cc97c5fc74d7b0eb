import { describe, expect, it } from 'vitest';
import { fitWidths, MIN_SHRUNK as MIN } from '../../src/ui/format.js';

describe('fitWidths', () => {
  it('cuts the widest column that is not fixed, until the row fits', () => {
    expect(fitWidths([24, 8, 7, 24, 14], 75, [1, 2, 4])).toEqual([23, 8, 7, 23, 14]);
    expect(fitWidths([24, 8, 7, 24, 14], 77, [1, 2, 4])).toEqual([24, 8, 7, 24, 14]);
  });

  it('spares the `last` columns until every other one is as narrow as it goes', () => {
    // list at 80 columns: the name is cut, the model id (its end is its version) kept whole
    expect(fitWidths([24, 8, 7, 24, 14], 71, [1, 2, 4], [3])).toEqual([18, 8, 7, 24, 14]);
    // no room left anywhere else: the model is cut too, once the name is as narrow as it goes
    expect(fitWidths([24, 8, 7, 24, 14], 50, [1, 2, 4], [3])).toEqual([MIN, 8, 7, 50 - 29 - MIN, 14]);
  });
});
