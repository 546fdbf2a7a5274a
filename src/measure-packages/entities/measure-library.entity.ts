import { Column, Entity, Index, PrimaryGeneratedColumn } from 'typeorm';

/**
 * A CQL library as compiled by its steward: the ELM JSON and the CQL it came from. Shared by every
 * measure that includes the same content; identified by its content, since one name and version can
 * come with two ELM translations (the 2024 edition's translator 3.3.2 and 3.18.0 copies). Never
 * updated.
 */
@Entity('measure_libraries')
@Index('UQ_measure_libraries_content_hash', ['contentHash'], { unique: true })
@Index('IDX_measure_libraries_name_version', ['name', 'version'])
export class MeasureLibraryRecord {
  @PrimaryGeneratedColumn('increment')
  id: number;

  /** The ELM's `library.identifier.id` (`FHIRHelpers`). */
  @Column('text')
  name: string;

  @Column('text')
  version: string;

  /** `Library.url`, where the resource had one. */
  @Column('text', { nullable: true })
  url: string | null;

  /** SHA-256 of name, version, ELM and CQL. */
  @Column('character', { name: 'content_hash', length: 64 })
  contentHash: string;

  @Column('jsonb')
  elm: object;

  @Column('text', { nullable: true })
  cql: string | null;

  @Column('timestamptz', { name: 'loaded_at', default: () => 'now()' })
  loadedAt: Date;
}
