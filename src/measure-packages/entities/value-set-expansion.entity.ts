import { Column, Entity, Index, JoinColumn, ManyToOne, PrimaryColumn, PrimaryGeneratedColumn } from 'typeorm';

/**
 * One expansion of a value set, complete (a cut-short or missing one is never stored). Shared by
 * every measure that names the same content; identified by its content, because the stewards
 * re-expand one value-set version as code systems change (the two editions hold 230 such pairs).
 * Never updated.
 */
@Entity('value_set_expansions')
@Index('UQ_value_set_expansions_content_hash', ['contentHash'], { unique: true })
@Index('IDX_value_set_expansions_url', ['url'])
export class ValueSetExpansionRecord {
  @PrimaryGeneratedColumn('increment')
  id: number;

  /** `ValueSet.url` (`http://cts.nlm.nih.gov/fhir/ValueSet/<oid>`), as the ELM names it. */
  @Column('text')
  url: string;

  @Column('text', { nullable: true })
  version: string | null;

  /** `ValueSet.title` or `name`. */
  @Column('text', { nullable: true })
  title: string | null;

  /** `expansion.identifier` and `expansion.timestamp`, as given: which expansion this is. */
  @Column('text', { name: 'expansion_identifier', nullable: true })
  expansionIdentifier: string | null;

  @Column('text', { name: 'expansion_timestamp', nullable: true })
  expansionTimestamp: string | null;

  @Column('integer', { name: 'code_count' })
  codeCount: number;

  /** SHA-256 of url, version and the sorted (system, code, display) rows. */
  @Column('character', { name: 'content_hash', length: 64 })
  contentHash: string;

  @Column('timestamptz', { name: 'loaded_at', default: () => 'now()' })
  loadedAt: Date;
}

/**
 * One code of an expansion, with the code system URI exactly as the steward wrote it: membership is
 * system and code compared exactly, as a CQL engine compares them (the 2024 and 2025 editions name
 * HCPCS by different URIs, and nothing maps one to the other).
 */
@Entity('value_set_codes')
export class ValueSetCodeRecord {
  @PrimaryColumn('integer', { name: 'value_set_id' })
  valueSetId: number;

  @ManyToOne(() => ValueSetExpansionRecord, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'value_set_id' })
  valueSet?: ValueSetExpansionRecord;

  @PrimaryColumn('text')
  system: string;

  @PrimaryColumn('text')
  code: string;

  @Column('text', { nullable: true })
  display: string | null;
}
