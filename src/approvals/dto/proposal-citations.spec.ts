import { randomUUID } from 'node:crypto';
import { citationId } from '../../cohort/chart.types';
import { CITATION_FORMS_TEXT, NOT_A_CITATION } from '../../clinical/citation-grammar';
import { gapCitation, missingDataCitation, readmissionPredictionCitation, riskDriverCitation } from '../../clinical/derived-citations';
import { ProblemException } from '../../common/http/problem';
import { validateDto } from '../../common/validation/validate-dto';
import { validateArguments } from '../../model-tools/tool-arguments';
import { AgentTool } from '../../model-tools/tool-catalog';
import { CreateProposalDto } from './proposal-requests.dto';

/** One id of each kind the tools emit (the grammar's own spec checks every kind; here, that the DTO uses it). */
const EMITTED = [
  citationId('obs', randomUUID()),
  citationId('cond', randomUUID()),
  citationId('req', randomUUID()),
  gapCitation('CMS122', { start: '2025-07-01', end: '2026-06-30' }),
  missingDataCitation('blood-pressure', '2026-06-30'),
  riskDriverCitation('prior_admissions_12m', '2026-06-30'),
  readmissionPredictionCitation('2026-06-30'),
];

describe('a proposal’s citations', () => {
  const body = (citations: string[]) => ({ kind: 'add_care_note', content: {}, rationale: 'A rationale long enough.', citations });

  it('accepts every kind of id a tool emits', async () => {
    await expect(validateDto(CreateProposalDto, body(EMITTED))).resolves.toBeInstanceOf(CreateProposalDto);
  });

  it('refuses a malformed one with `not_a_citation` and the accepted forms in words', async () => {
    const refused = await validateDto(CreateProposalDto, body(['obs:not-a-uuid'])).catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(ProblemException);
    expect((refused as ProblemException).errors).toEqual([
      { field: 'citations', reason: NOT_A_CITATION, message: CITATION_FORMS_TEXT },
    ]);
    expect(CITATION_FORMS_TEXT).toMatch(/^each citation must be the id of a row a tool returned.*obs:<uuid> \(lab or vital\).*cond:<uuid> \(condition\).*gap:<measure>@<start>\.\.<end> \(care gap\)/);
  });

  it('tells the model the accepted forms when propose_action is refused for one', async () => {
    const tool: AgentTool = { name: 'propose_action', description: '', argumentsDto: CreateProposalDto, schema: {} };
    const result = await validateArguments(tool, body(['cond:97995cdf']));
    expect(result).toMatchObject({ ok: false, refusal: { error: { kind: 'invalid_arguments', fields: [{ field: 'citations', reason: NOT_A_CITATION }] } } });
    expect(!result.ok && result.refusal.error.nextSteps).toContain(CITATION_FORMS_TEXT);
  });
});
