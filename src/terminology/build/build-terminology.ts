import { writeFileSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import {
  DEFAULT_SOURCE,
  readTerminologySource,
  renderValueSetNames,
  repoRoot,
  serializeArtifact,
  TerminologySourceError,
} from './terminology-source';

/**
 * `npm run terminology:build [-- <snapshot dir>]`: regenerates `src/terminology/vsac-expansions.json`
 * and `src/terminology/value-set-names.ts` from the eCQM content snapshot. The default snapshot is
 * `../shared/external-data/ecqm-qicore-2024` beside the repository; a path given on the command line
 * is taken relative to the current directory (the repository root, under `npm run`).
 */

function main(argv: string[]): number {
  const root = repoRoot(__dirname);
  const sourceDir = argv[0] ? resolve(argv[0]) : resolve(root, DEFAULT_SOURCE);
  let generated;
  try {
    generated = readTerminologySource(sourceDir);
  } catch (error) {
    if (!(error instanceof TerminologySourceError)) throw error;
    console.error(`terminology:build: ${error.message}`);
    return 1;
  }
  const outDir = join(root, 'src', 'terminology');
  const json = serializeArtifact(generated.artifact);
  writeFileSync(join(outDir, 'vsac-expansions.json'), json);
  writeFileSync(join(outDir, 'value-set-names.ts'), renderValueSetNames(generated));
  const { source } = generated.artifact;
  // stderr: the project's lint allows console.error/warn only, and this is a build step's report.
  console.error(
    `terminology:build: ${source.valueSetCount} value sets, ${source.codeCount} codes, ${generated.names.length} CQL names ` +
      `from ${source.repository}@${source.commit.slice(0, 12)}; wrote ${relative(root, outDir)}/vsac-expansions.json ` +
      `(${Buffer.byteLength(json)} bytes) and value-set-names.ts`,
  );
  return 0;
}

if (require.main === module) process.exitCode = main(process.argv.slice(2));
