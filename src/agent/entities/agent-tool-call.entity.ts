import { Column, CreateDateColumn, Entity, JoinColumn, ManyToOne, PrimaryColumn } from 'typeorm';
import { AgentTurnRecord } from './agent-turn.entity';

/** One tool call of a turn, in the order the model made them, written with its model reply's other calls once they have all ended. */
@Entity('agent_tool_calls')
export class AgentToolCallRecord {
  @PrimaryColumn('uuid', { name: 'turn_id' })
  turnId: string;

  /** 0-based position of the call in the turn. */
  @PrimaryColumn('int')
  seq: number;

  @ManyToOne(() => AgentTurnRecord, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'turn_id' })
  turn?: AgentTurnRecord;

  @Column('text')
  tool: string;

  /** As the model sent them; null when they were not JSON. */
  @Column('jsonb', { nullable: true })
  arguments: unknown;

  /** The envelope status, `filed`, or the refusal kind (as in the turn's response). */
  @Column('text')
  status: string;

  /** Rows the tool returned; null for a refusal or a proposal. */
  @Column('int', { name: 'row_count', nullable: true })
  rowCount: number | null;

  /** The result exactly as the model read it: the agent-projected, compacted JSON inside the data boundary. */
  @Column('jsonb')
  envelope: unknown;

  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' })
  createdAt: Date;
}
