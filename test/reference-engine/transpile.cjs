'use strict';
/* eslint-disable @typescript-eslint/no-require-imports -- a CommonJS require hook, preloaded with node -r */
/**
 * Lets `node -r ./test/reference-engine/transpile.cjs <file>.ts` run the harness's TypeScript
 * (npm run reference:cache). The repo has no ts-node; compiling to another folder would move
 * __dirname, by which the harness finds ../shared and its worker. Transpile only, as Jest does:
 * type checking is `npm run typecheck`'s.
 */
const { readFileSync } = require('node:fs');
const ts = require('typescript');

const compilerOptions = {
  module: ts.ModuleKind.CommonJS,
  target: ts.ScriptTarget.ES2022,
  esModuleInterop: true,
  experimentalDecorators: true,
  emitDecoratorMetadata: true,
  inlineSourceMap: true,
};

require.extensions['.ts'] = (module, filename) => {
  const { outputText } = ts.transpileModule(readFileSync(filename, 'utf8'), { compilerOptions, fileName: filename });
  module._compile(outputText, filename);
};
