import assert from 'node:assert/strict';
import { readdirSync } from 'node:fs';
import path from 'node:path';
import { describe, it } from 'node:test';
import { parse } from '../../main/contracts/scrypt/parser.js';
import { STDLIB_FILE, STDLIB_FILES, STDLIB_NAMES, stdlibSource } from '../../main/contracts/scrypt/stdlib.js';
import { ROOT } from '../helpers/headless.js';

const DIR = path.join(ROOT, 'main', 'contracts', 'scrypt', 'stdlib');

describe('sCrypt standard library sources', () => {
  it('loads every .scrypt file of stdlib/, and only those', () => {
    // A file left out of STDLIB_FILES would be copied into the build but never compiled.
    const onDisk = readdirSync(DIR).filter((f) => f.endsWith('.scrypt'));
    assert.deepEqual([...STDLIB_FILES].sort(), onDisk.sort());
  });

  it('parses, and declares exactly the names STDLIB_NAMES lists, in that order', () => {
    const { program, diagnostics } = parse(stdlibSource(), STDLIB_FILE);
    assert.deepEqual(diagnostics.items, []);
    assert.deepEqual(
      program.items.map((i) => i.name),
      STDLIB_NAMES,
    );
  });
});
