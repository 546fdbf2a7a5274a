import { once } from 'node:events';
import { createReadStream, createWriteStream } from 'node:fs';
import { Writable } from 'node:stream';
import { finished, pipeline } from 'node:stream/promises';
import type { PoolClient } from 'pg';
import { from as copyFrom } from 'pg-copy-streams';

/** Bytes gathered before one write to a stream: few large writes are much cheaper than many small ones. */
const CHUNK_BYTES = 1 << 20;

/**
 * A buffered writer in front of a COPY stream or a spool file, honouring back-pressure, so the
 * generator never runs ahead of Postgres (or the disk) by more than a chunk.
 */
export class RowSink {
  private buffer = '';
  rows = 0;

  constructor(private readonly stream: Writable) {}

  async write(text: string, rows: number): Promise<void> {
    this.rows += rows;
    this.buffer += text;
    if (this.buffer.length >= CHUNK_BYTES) await this.flush();
  }

  async end(): Promise<void> {
    await this.flush();
    this.stream.end();
    await finished(this.stream);
  }

  /** Stops the stream after a failure elsewhere (the transaction is rolled back anyway). */
  destroy(): void {
    this.stream.destroy();
  }

  private async flush(): Promise<void> {
    if (this.buffer.length === 0) return;
    const chunk = this.buffer;
    this.buffer = '';
    // `once` rejects if the stream errors while we wait (a CHECK violation inside COPY, say).
    if (!this.stream.write(chunk)) await once(this.stream, 'drain');
  }
}

export function copyInto(client: PoolClient, statement: string): RowSink {
  return new RowSink(client.query(copyFrom(statement)));
}

export function spoolTo(path: string): RowSink {
  return new RowSink(createWriteStream(path, { encoding: 'utf8' }));
}

/** Streams a spooled file into a COPY. */
export async function copyFile(client: PoolClient, statement: string, path: string): Promise<void> {
  await pipeline(createReadStream(path), client.query(copyFrom(statement)));
}

/** A secondary index or foreign key of a loaded table, with the exact DDL that recreates it. */
export interface DroppedObject {
  kind: 'index' | 'key' | 'foreign key';
  table: string;
  name: string;
  create: string;
}

/**
 * The secondary indexes (not those behind a primary key or unique constraint) and the foreign keys
 * of the given tables, read from the catalog: whatever the migrations made, including indexes added
 * after this code was written, is recreated exactly as it was.
 */
export async function secondaryObjects(client: PoolClient, tables: readonly string[]): Promise<DroppedObject[]> {
  const indexes = await client.query<{ table: string; name: string; definition: string }>(
    `SELECT t.relname AS "table", i.relname AS name, pg_get_indexdef(x.indexrelid) AS definition
       FROM pg_index x
       JOIN pg_class i ON i.oid = x.indexrelid
       JOIN pg_class t ON t.oid = x.indrelid
       JOIN pg_namespace n ON n.oid = t.relnamespace
      WHERE n.nspname = current_schema() AND t.relname = ANY($1)
        AND NOT EXISTS (SELECT 1 FROM pg_constraint k WHERE k.conindid = x.indexrelid AND k.conrelid = x.indrelid AND k.contype IN ('p', 'u', 'x'))
      ORDER BY t.relname, i.relname`,
    [tables],
  );
  const foreignKeys = await client.query<{ table: string; name: string; definition: string }>(
    `SELECT t.relname AS "table", k.conname AS name, pg_get_constraintdef(k.oid) AS definition
       FROM pg_constraint k
       JOIN pg_class t ON t.oid = k.conrelid
       JOIN pg_namespace n ON n.oid = t.relnamespace
      WHERE n.nspname = current_schema() AND t.relname = ANY($1) AND k.contype = 'f'
      ORDER BY t.relname, k.conname`,
    [tables],
  );
  // Primary keys and unique constraints that no foreign key outside the loaded tables depends on:
  // building them once after the load beats inserting millions of random UUIDs into a B-tree.
  const keys = await client.query<{ table: string; name: string; definition: string }>(
    `SELECT t.relname AS "table", k.conname AS name, pg_get_constraintdef(k.oid) AS definition
       FROM pg_constraint k
       JOIN pg_class t ON t.oid = k.conrelid
       JOIN pg_namespace n ON n.oid = t.relnamespace
      WHERE n.nspname = current_schema() AND t.relname = ANY($1) AND k.contype IN ('p', 'u')
        AND NOT EXISTS (
          SELECT 1 FROM pg_constraint f JOIN pg_class ft ON ft.oid = f.conrelid
           WHERE f.contype = 'f' AND f.confrelid = k.conrelid AND NOT (ft.relname = ANY($1)))
      ORDER BY t.relname, k.conname`,
    [tables],
  );
  return [
    ...indexes.rows.map((row): DroppedObject => ({ kind: 'index', table: row.table, name: row.name, create: row.definition })),
    ...keys.rows.map(
      (row): DroppedObject => ({
        kind: 'key',
        table: row.table,
        name: row.name,
        create: `ALTER TABLE ${quote(row.table)} ADD CONSTRAINT ${quote(row.name)} ${row.definition}`,
      }),
    ),
    ...foreignKeys.rows.map(
      (row): DroppedObject => ({
        kind: 'foreign key',
        table: row.table,
        name: row.name,
        create: `ALTER TABLE ${quote(row.table)} ADD CONSTRAINT ${quote(row.name)} ${row.definition}`,
      }),
    ),
  ];
}

/** Foreign keys first (keys they reference can then go), then keys and indexes. */
export async function dropObjects(client: PoolClient, objects: readonly DroppedObject[]): Promise<void> {
  for (const kind of ['foreign key', 'key', 'index'] as const) {
    for (const object of objects.filter((entry) => entry.kind === kind)) {
      await client.query(
        kind === 'index' ? `DROP INDEX ${quote(object.name)}` : `ALTER TABLE ${quote(object.table)} DROP CONSTRAINT ${quote(object.name)}`,
      );
    }
  }
}

/** Keys and indexes first, then foreign keys (which need the referenced keys, and validate faster with them). */
export async function recreateObjects(client: PoolClient, objects: readonly DroppedObject[]): Promise<void> {
  for (const kind of ['key', 'index', 'foreign key'] as const) {
    for (const object of objects.filter((entry) => entry.kind === kind)) await client.query(object.create);
  }
}

export function quote(identifier: string): string {
  return `"${identifier.replace(/"/g, '""')}"`;
}
