// When two agent names are one name (sameAgentName): the rule the embedded service keeps names unique
// by, and the CLI's check, reference matching and the fleet file's duplicate check all use.
import { describe, expect, it } from 'vitest';
import { sameAgentName } from '../../src/contract.js';

describe('sameAgentName', () => {
  it.each([
    ['case and surrounding spaces', 'Demo', ' demo '],
    ['é precomposed and as e + U+0301', 'd\u00e9mo', 'de\u0301mo'],
    ['Å as the Ångström sign U+212B', '\u00c5ngstr\u00f6m', '\u212bngstro\u0308m'],
    ['full-width letters and digits', 'demo 2', '\uff24\uff25\uff2d\uff2f \uff12'],
    ['a ligature', 'fish', '\ufb01sh'],
    ['ß and SS (case folded, not only lowered)', 'Straße', 'STRASSE'],
    ['a final sigma and a medial one at the end', 'ΟΔΟΣ', 'οδο\u03c3'],
    ['a no-break or ideographic space, and runs of spaces', 'demo bot', 'demo\u00a0\u3000 bot'],
  ])('one name: %s', (_, a, b) => {
    expect(sameAgentName(a, b)).toBe(true);
    expect(sameAgentName(b, a)).toBe(true);
  });

  it.each([
    ['other letters', 'demo', 'demos'],
    ['an accent that shows', 'demo', 'démo'],
    ['a space that shows', 'demo bot', 'demobot'],
    ['a digit', 'bot1', 'bot2'],
  ])('two names: %s', (_, a, b) => {
    expect(sameAgentName(a, b)).toBe(false);
  });

  it("an unknown name is nobody's", () => {
    expect(sameAgentName(undefined, 'demo')).toBe(false);
    expect(sameAgentName('demo', undefined)).toBe(false);
  });
});
