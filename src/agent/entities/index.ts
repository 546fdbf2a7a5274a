import { AgentToolCallRecord } from './agent-tool-call.entity';
import { AgentTurnRecord } from './agent-turn.entity';

export { AgentToolCallRecord, AgentTurnRecord };

export const AGENT_ENTITIES = [AgentTurnRecord, AgentToolCallRecord];
