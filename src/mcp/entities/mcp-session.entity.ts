import { Check, Column, CreateDateColumn, Entity, Index, JoinColumn, ManyToOne, PrimaryColumn } from 'typeorm';

/**
 * One MCP session, kept in Postgres so that whichever API process receives a request can serve it:
 * who opened it for which patient, what was negotiated and decided at `initialize`, and the
 * session's governance state (calls, calls per tool, failed calls, what it may cite). No patient
 * data: the tools' rows are never stored, only their citation ids.
 */
@Entity('mcp_sessions')
@Check('CHK_mcp_sessions_patient', '"patient_id" IS NOT NULL OR "picker"')
@Index('IDX_mcp_sessions_user', ['userId', 'createdAt'])
@Index('IDX_mcp_sessions_expires', ['expiresAt'])
export class McpSessionRecord {
  /** The `Mcp-Session-Id`: a random (v4) UUID from the CSPRNG, never derived from anything. */
  @PrimaryColumn('uuid')
  id: string;

  /** The user who opened it: a request with another user's token finds no session. */
  @Column('uuid', { name: 'user_id' })
  userId: string;

  // The cohort's tables are named, not imported: a session ends with its user or patient.
  @ManyToOne('StaffUser', { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'user_id' })
  user?: object;

  /** The patient every read of the session is about; null only while a picker session waits for the person's choice. */
  @Column('uuid', { name: 'patient_id', nullable: true })
  patientId: string | null;

  @ManyToOne('Patient', { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'patient_id' })
  patient?: object;

  /**
   * Opened without a patient (`/mcp`): the person chooses one in their client's form (elicitation),
   * once; until then no tool reads anyone, and afterwards nothing can change it.
   */
  @Column('boolean', { default: false })
  picker: boolean;

  /**
   * The patient forms sent and not yet answered, by the elicitation's request id: the patient ids each
   * offered (in order; the form's answer names a position, never an id) and, once declined, how. Ids
   * only, never a name: whichever process receives the answer reads the offer here.
   */
  @Column('jsonb', { name: 'patient_offers', default: () => `'{}'` })
  patientOffers: Record<string, { patientIds: string[]; answer?: string }>;

  @Column('text', { name: 'break_glass_reason', nullable: true })
  breakGlassReason: string | null;

  /** The MCP protocol version `initialize` settled on; later requests must not name another. */
  @Column('text', { name: 'protocol_version' })
  protocolVersion: string;

  /** The read tools the patient had data for at opening (what `tools/list` offers for the whole session). */
  @Column('text', { array: true })
  tools: string[];

  @Column('integer', { default: 0 })
  calls: number;

  @Column('jsonb', { name: 'calls_per_tool', default: () => `'{}'` })
  callsPerTool: Record<string, number>;

  /** SHA-256 of each failed call's key (tool and normalised arguments): the arguments themselves are not kept. */
  @Column('text', { name: 'failed_calls', array: true, default: () => `'{}'` })
  failedCalls: string[];

  /** The citation ids the session's reads returned: what `propose_action` may cite. */
  @Column('text', { array: true, default: () => `'{}'` })
  citable: string[];

  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' })
  createdAt: Date;

  @Column('timestamptz', { name: 'last_used_at', default: () => 'now()' })
  lastUsedAt: Date;

  /**
   * When the session ends unless used again: each request of its person moves it to
   * MCP_SESSION_IDLE_MINUTES from then, never past MCP_SESSION_MAX_HOURS after the opening.
   */
  @Column('timestamptz', { name: 'expires_at' })
  expiresAt: Date;
}

export const MCP_ENTITIES = [McpSessionRecord];
