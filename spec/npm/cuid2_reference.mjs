// spec/npm/cuid2_reference.mjs: CUID2s minted by the pinned
// @paralleldrive/cuid2 (its createId, and init of each length 2..32), one
// a line, for spec/npm/mint.lua to have mintid's is_cuid2 read back.
// spec/npm/run.sh copies it next to the packages' node_modules.
import { createId, init } from '@paralleldrive/cuid2';

const lines = [];
for (let i = 0; i < 20; i += 1) lines.push(createId());
for (let length = 2; length <= 32; length += 1) lines.push(init({ length })());
console.log(lines.join('\n'));
