import type { ReadResourceResult, Resource } from '@modelcontextprotocol/sdk/types.js';
import { allValueSets, TERMINOLOGY_SOURCE } from '../terminology';
import type { MeasureCatalogueService } from '../measure-packages';
import { READMISSION_MODEL } from '../clinical/readmission';
import { ABSENCE_ASSUMPTION, MEDICATION_ASSUMPTION } from '../tools/envelope';

/**
 * The read-only resources of a session: reference material, never the record. Nothing here reads
 * a patient, so reading a resource is not a PHI access (tool calls are, and are audited).
 */
export const RESOURCE_URIS = {
  measures: 'vigil://measures',
  modelCard: 'vigil://models/readmission-30d/model-card',
  assumptions: 'vigil://patient/assumptions',
} as const;

export const MCP_RESOURCES: Resource[] = [
  {
    uri: RESOURCE_URIS.measures,
    name: 'measure-catalogue',
    title: 'Quality measures (eCQM): those care_gap_lookup evaluates, and those loaded as data',
    description:
      'Each measure care_gap_lookup evaluates with its version and CQL library, where Vigil differs from the CQL, and the value-set expansion it reads codes through; ' +
      'then every measure loaded as data (each edition: key, title, version, scoring, basis, groups, when loaded), and whether it is evaluated.',
    mimeType: 'application/json',
  },
  {
    uri: RESOURCE_URIS.modelCard,
    name: 'readmission-model-card',
    title: 'The 30-day readmission model behind feature_attribution',
    description: 'Model id and version, intercept, features with weights, baselines and caps; illustrative, not validated for clinical use.',
    mimeType: 'application/json',
  },
  {
    uri: RESOURCE_URIS.assumptions,
    name: 'envelope-assumptions',
    title: 'How to read every tool result for this patient',
    description: 'The assumptions every envelope carries: no data means never recorded here, a medication order is intent.',
    mimeType: 'application/json',
  },
];

/** The catalogue `GET /measures` serves, with the built-in measures' value-set expansion beside it. */
async function measureCatalogue(catalogue: MeasureCatalogueService): Promise<unknown> {
  const { repository, commit, date, licence, valueSetCount, codeCount, expansionIdentifiers, expansionTimestamps } = TERMINOLOGY_SOURCE;
  const { measures, loaded } = await catalogue.catalogue();
  return {
    measures: measures.map(({ key, ...measure }) => ({ id: key, ...measure })),
    valueSetExpansion: { repository, commit, date, licence, valueSetCount, codeCount, expansionIdentifiers, expansionTimestamps },
    valueSets: allValueSets().map((set) => ({ oid: set.oid, name: set.name, version: set.version })),
    loaded,
  };
}

function modelCard(): unknown {
  return {
    ...READMISSION_MODEL,
    explanation: 'Exact Shapley values of a linear model in log-odds space: baselineLogit + the sum of all contributions equals the logit.',
    documentation: 'docs/readmission-model-card.md in the Vigil repository.',
  };
}

const ASSUMPTIONS = {
  assumptions: [
    ABSENCE_ASSUMPTION,
    MEDICATION_ASSUMPTION,
    'Dates are clinical days in the practice time zone; a window names its ends and how they were treated.',
    'Every row carries a citation id; a statement about the patient stands only on the rows it cites.',
  ],
};

/** The contents of one resource, or undefined for a URI this server does not have. */
export async function readResource(uri: string, catalogue: MeasureCatalogueService): Promise<ReadResourceResult | undefined> {
  const body =
    uri === RESOURCE_URIS.measures ? await measureCatalogue(catalogue) : uri === RESOURCE_URIS.modelCard ? modelCard() : uri === RESOURCE_URIS.assumptions ? ASSUMPTIONS : undefined;
  if (body === undefined) return undefined;
  return { contents: [{ uri, mimeType: 'application/json', text: JSON.stringify(body) }] };
}
