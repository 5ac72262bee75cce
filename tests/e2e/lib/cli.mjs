// The `rollout` CLI for specs that compare the page with it: built by cargo (debug, as the test
// command's native layers already built it) and found in cargo's own report of what it built.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { repoRoot } from './paths.mjs';

/** Builds `rollout-cli` and returns the path of its `rollout` executable. */
export function buildRollout() {
  const out = execFileSync('cargo', ['build', '-q', '-p', 'rollout-cli', '--message-format=json'], {
    cwd: repoRoot,
    encoding: 'utf8',
    maxBuffer: 64 << 20,
  });
  const rollout = out
    .split('\n')
    .filter(Boolean)
    .map((l) => JSON.parse(l))
    .find((m) => m.reason === 'compiler-artifact' && m.executable && m.target?.name === 'rollout')?.executable;
  assert.ok(rollout, 'cargo built the rollout binary');
  return rollout;
}
