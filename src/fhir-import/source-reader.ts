import { createReadStream } from 'node:fs';
import { readdir, readFile, stat } from 'node:fs/promises';
import { basename, join, relative, sep } from 'node:path';
import { createInterface } from 'node:readline';
import { asArray, asObject, asString, Json } from './json';
import { Position } from './fhir-import.types';

export interface SourceFile {
  path: string;
  /** Relative to what the import was given (the file's own name when given one file). */
  display: string;
  bytes: number;
}

/** One item read from a source: a resource (with its Bundle fullUrl) or why nothing usable was there. */
export type SourceEntry =
  | { position: Position; resource: Json; fullUrl?: string; bytes: number }
  | { position: Position; problem: string; bytes: number };

const EXTENSIONS = ['.ndjson', '.json'];

/** Bundle types whose entries are resources to load; the others carry history or server responses. */
const LOADABLE_BUNDLES = new Set(['transaction', 'batch', 'collection', 'searchset', 'document']);

/**
 * The `.json` and `.ndjson` files of a file or folder (recursively, hidden entries skipped), in
 * order of their relative path by code unit, so every run reads the same files in the same order.
 */
export async function listSourceFiles(root: string): Promise<SourceFile[]> {
  const info = await stat(root);
  if (info.isFile()) return [{ path: root, display: basename(root), bytes: info.size }];
  const found: SourceFile[] = [];
  const walk = async (folder: string): Promise<void> => {
    for (const entry of await readdir(folder, { withFileTypes: true })) {
      if (entry.name.startsWith('.')) continue;
      const path = join(folder, entry.name);
      if (entry.isDirectory()) await walk(path);
      else if (entry.isFile() && EXTENSIONS.some((extension) => entry.name.endsWith(extension))) {
        found.push({ path, display: relative(root, path).split(sep).join('/'), bytes: (await stat(path)).size });
      }
    }
  };
  await walk(root);
  return found.sort((a, b) => (a.display < b.display ? -1 : a.display > b.display ? 1 : 0));
}

/** Every entry of one file: NDJSON line by line, a `.json` file as a Bundle or a single resource. */
export function readSourceFile(file: SourceFile): AsyncGenerator<SourceEntry> {
  return file.path.endsWith('.ndjson') ? readNdjson(file) : readJson(file);
}

async function* readNdjson(file: SourceFile): AsyncGenerator<SourceEntry> {
  const lines = createInterface({ input: createReadStream(file.path, { encoding: 'utf8' }), crlfDelay: Infinity });
  let line = 0;
  for await (const text of lines) {
    line += 1;
    const bytes = Buffer.byteLength(text) + 1;
    if (text.trim() === '') continue;
    const position = { file: file.display, line };
    const parsed = parseJson(text.charCodeAt(0) === 0xfeff ? text.slice(1) : text);
    const resource = asObject(parsed);
    if (parsed === undefined) yield { position, problem: 'not valid JSON', bytes };
    else if (!resource) yield { position, problem: 'not a JSON object', bytes };
    else yield { position, resource, bytes };
  }
}

async function* readJson(file: SourceFile): AsyncGenerator<SourceEntry> {
  const position = { file: file.display };
  const text = await readFile(file.path, 'utf8');
  const document = asObject(parseJson(text.charCodeAt(0) === 0xfeff ? text.slice(1) : text));
  if (!document) {
    yield { position, problem: 'not valid JSON (or not a JSON object)', bytes: file.bytes };
    return;
  }
  if (document.resourceType !== 'Bundle') {
    yield { position, resource: document, bytes: file.bytes };
    return;
  }
  if (!LOADABLE_BUNDLES.has(asString(document.type) ?? '')) {
    yield { position, problem: 'Bundle type not loadable (only transaction, batch, collection, searchset, document)', bytes: file.bytes };
    return;
  }
  const entries = asArray(document.entry);
  const share = entries.length ? file.bytes / entries.length : file.bytes;
  for (const [index, item] of entries.entries()) {
    const entryPosition = { file: file.display, entry: index };
    const entry = asObject(item);
    const resource = asObject(entry?.resource);
    const method = asString(asObject(entry?.request)?.method);
    if (method && method !== 'POST' && method !== 'PUT') {
      const named = ['DELETE', 'PATCH', 'GET', 'HEAD'].includes(method) ? method : 'method';
      yield { position: entryPosition, problem: `Bundle entry request ${named} not supported (only POST and PUT)`, bytes: share };
    } else if (!resource) yield { position: entryPosition, problem: 'Bundle entry without a resource', bytes: share };
    else yield { position: entryPosition, resource, fullUrl: asString(entry?.fullUrl), bytes: share };
  }
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}
