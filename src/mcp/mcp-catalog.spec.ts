import { agentTools, PROPOSE_ACTION } from '../model-tools/tool-catalog';
import { AsOfQueryDto } from '../tools/dto/as-of-query.dto';
import { CareGapsQueryDto } from '../tools/dto/care-gaps-query.dto';
import { EncountersQueryDto } from '../tools/dto/encounters-query.dto';
import { LabsQueryDto } from '../tools/dto/labs-query.dto';
import { TOOL_NAMES, ToolName } from '../tools/tool-names';
import { mcpTools, sessionInstructions } from './mcp-catalog';

const DTOS: Record<ToolName, new () => object> = {
  patient_encounters: EncountersQueryDto,
  patient_labs: LabsQueryDto,
  care_gap_lookup: CareGapsQueryDto,
  missing_data_check: AsOfQueryDto,
  feature_attribution: AsOfQueryDto,
};
const catalog = agentTools((name) => ({ summary: `${name} summary`, queryDto: DTOS[name] }));

describe('MCP tool list', () => {
  it.each([
    ['every read tool available', [...TOOL_NAMES], [...TOOL_NAMES, PROPOSE_ACTION]],
    ['no inpatient stay', TOOL_NAMES.filter((name) => name !== 'feature_attribution'), [...TOOL_NAMES.filter((name) => name !== 'feature_attribution'), PROPOSE_ACTION]],
    ['no read tool available', [], [PROPOSE_ACTION]],
  ])('lists exactly the available tools and propose_action (%s), with the agent catalogue’s own schemas', (_name, available, listed) => {
    const tools = mcpTools(catalog, available as ToolName[]);
    expect(tools.map((tool) => tool.name)).toEqual(listed);
    for (const tool of tools) {
      expect(tool.inputSchema).toEqual(catalog.get(tool.name as ToolName)!.schema);
      expect(tool.outputSchema).toMatchObject({ type: 'object', anyOf: [expect.any(Object), expect.objectContaining({ required: ['tool', 'error'] })] });
      expect(tool.annotations?.readOnlyHint).toBe(tool.name !== PROPOSE_ACTION);
    }
  });

  it('names in the instructions exactly the read tools left out', () => {
    expect(sessionInstructions(catalog, [...TOOL_NAMES])).not.toMatch(/Not offered/);
    const without = sessionInstructions(catalog, TOOL_NAMES.filter((name) => name !== 'feature_attribution'));
    expect(without).toMatch(/Not offered for this patient[^\n]*: feature_attribution \(/);
    // A session whose person has not chosen its patient yet says who chooses, and names no tool left out.
    const picker = sessionInstructions(catalog, null);
    expect(picker).toMatch(/chosen by the person[^\n]*the assistant cannot choose or change it/);
    expect(picker).not.toMatch(/Not offered/);
  });
});
