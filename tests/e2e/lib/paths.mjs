// Where things are, relative to this file: the repository root, the built app and the screenshots.
import { fileURLToPath } from 'node:url';
import path from 'node:path';

export const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..', '..');

/** The trunk output the suite tests; scripts/dev.sh test rebuilds it just before. */
export const distDir = path.resolve(process.env.ROLLOUT_DIST ?? path.join(repoRoot, 'dist'));

/** Gitignored; every run overwrites the files it writes. */
export const screenshotDir = path.join(repoRoot, 'tests', 'e2e', 'screenshots');

/** The conformance fixtures (read at test time, never copied): ROLLOUT_CONFORMANCE_DIR or ../shared/conformance. */
export const conformanceDir = path.resolve(
  process.env.ROLLOUT_CONFORMANCE_DIR ?? path.join(repoRoot, '..', 'shared', 'conformance'),
);

/** The race schedules and their traces (read at test time, never copied): ROLLOUT_RACES_DIR or ../shared/races. */
export const racesDir = path.resolve(process.env.ROLLOUT_RACES_DIR ?? path.join(repoRoot, '..', 'shared', 'races'));
