import type { ChatCompletionFunctionTool } from 'openai/resources/chat/completions';
import { CreateProposalDto } from '../approvals/dto/proposal-requests.dto';
import { KIND_POLICY } from '../approvals/proposal-policy';
import { TOOL_NAMES, ToolName } from '../tools/tool-names';
import { Type } from '@nestjs/common';
import { jsonSchemaOf, JsonSchema } from './json-schema';

export const PROPOSE_ACTION = 'propose_action';
export type AgentToolName = ToolName | typeof PROPOSE_ACTION;

/** One tool as the model sees it and as the server validates it: the same DTO class for both. */
export interface AgentTool {
  name: AgentToolName;
  description: string;
  argumentsDto: Type<object>;
  schema: JsonSchema;
}

const PROPOSE_DESCRIPTION =
  'Draft a proposal for THIS patient (the one the question is about). It stays the clinician\'s draft until they submit it ' +
  'for review; nothing is executed. Cite only ids returned by the tools in this conversation; never advise treatment.';

function proposeActionSchema(): JsonSchema {
  const schema = jsonSchemaOf(CreateProposalDto);
  // The request DTO declares `content` as an open object (its kind decides its shape); the model is
  // told each kind's closed shape, and the server validates it with that kind's DTO.
  const kinds = Object.values(KIND_POLICY).map((policy) => jsonSchemaOf(policy.content));
  return { ...schema, properties: { ...schema.properties, content: { description: 'The kind’s typed content.', anyOf: kinds } } };
}

/** The six tools of a turn: the five read tools and `propose_action`. Nothing else exists for the model. */
export function agentTools(describe: (name: ToolName) => { summary: string; queryDto: Type<object> }): Map<AgentToolName, AgentTool> {
  const reads: AgentTool[] = TOOL_NAMES.map((name) => {
    const tool = describe(name);
    return { name, description: tool.summary, argumentsDto: tool.queryDto, schema: jsonSchemaOf(tool.queryDto) };
  });
  const propose: AgentTool = { name: PROPOSE_ACTION, description: PROPOSE_DESCRIPTION, argumentsDto: CreateProposalDto, schema: proposeActionSchema() };
  return new Map([...reads, propose].map((tool) => [tool.name, tool]));
}

export function asModelTools(catalog: Map<AgentToolName, AgentTool>): ChatCompletionFunctionTool[] {
  return [...catalog.values()].map((tool) => ({
    type: 'function',
    function: { name: tool.name, description: tool.description, parameters: tool.schema as Record<string, unknown> },
  }));
}
