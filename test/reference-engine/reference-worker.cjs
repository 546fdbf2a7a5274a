'use strict';
/* eslint-disable @typescript-eslint/no-require-imports -- a plain CommonJS entry point (forked by reference-engine.ts) */
/**
 * A child process of reference-engine.ts (plain Node: it is forked, not loaded by Jest, so it is
 * not TypeScript). It runs the stewards' ELM with fqm-execution and answers, per patient and
 * population group, which populations the patient is in. Started with TZ=UTC (see the parent).
 *
 * Messages in:  { type: 'measure', key, bundle }            keep a measure Bundle (once per key)
 *               { type: 'run', id, key, patients, period, mode, statements }
 * With `statements`, each result also carries a summary of every define of the main library
 * (lists by length, resources by id, other values as text), to compare runs finer than populations.
 * Messages out: { type: 'ready' } once; { id, ok: true, results, engineMs, setupMs } or { id, ok: false, error }
 *
 * mode 'raw' (default): Calculator.calculateRaw, then the engine's own createPopulationValues per
 * group, which is what Calculator.calculate does for each group minus the statement and clause
 * results (about 5x faster on CMS347). mode 'calculate': the public Calculator.calculate, kept so
 * a test can check the two agree.
 */
const { performance } = require('node:perf_hooks');
const { Calculator } = require('fqm-execution');
const { createPopulationValues } = require('fqm-execution/build/calculation/DetailedResultsBuilder');

const measures = new Map();
const warmed = new Set();

function options(period) {
  return {
    measurementPeriodStart: period.start,
    measurementPeriodEnd: period.end,
    calculateHTML: false,
    calculateSDEs: false,
    calculateRAVs: false,
    calculateClauseCoverage: false,
    calculateClauseUncoverage: false,
    calculateCoverageDetails: false,
    verboseCalculationResults: false,
    // Profile checking stays on; the parent tags untagged resources (profiles.ts).
    trustMetaProfile: true,
    // In-memory only: the parsed ELM, code service and repository per Measure id|version, for
    // ten minutes. Results do not depend on it.
    useElmJsonsCaching: true,
  };
}

function summary(value) {
  if (value === null || value === undefined) return null;
  if (Array.isArray(value)) return `list of ${value.length}: ${value.map(summary).join(', ')}`;
  if (typeof value !== 'object') return value;
  if (value._json && value._json.resourceType) return `${value._json.resourceType}/${value._json.id}`;
  return typeof value.toString === 'function' && value.toString !== Object.prototype.toString ? value.toString() : JSON.stringify(Object.keys(value));
}

function statementsOf(patientResults) {
  return Object.fromEntries(Object.entries(patientResults).filter(([name]) => name !== 'Patient').map(([name, value]) => [name, summary(value)]));
}

function populationsOf(populationResults) {
  const populations = {};
  for (const result of populationResults ?? []) {
    populations[result.populationType] = populations[result.populationType] === true || result.result === true;
  }
  return populations;
}

/** A patient with nothing but a tagged Patient resource: runs the ELM setup once per key. */
const WARM_UP = {
  resourceType: 'Bundle',
  type: 'collection',
  entry: [{ resource: { resourceType: 'Patient', id: 'reference-engine-warm-up', meta: { profile: ['http://hl7.org/fhir/us/qicore/StructureDefinition/qicore-patient'] } } }],
};

async function run(message) {
  const bundle = measures.get(message.key);
  if (!bundle) throw new Error(`measure ${message.key} was not sent to this worker`);
  const measure = bundle.entry.find((entry) => entry.resource.resourceType === 'Measure').resource;
  let setupMs = 0;
  if (!warmed.has(message.key)) {
    const started = performance.now();
    await Calculator.calculateRaw(bundle, [WARM_UP], options(message.period));
    setupMs = performance.now() - started;
    warmed.add(message.key);
  }
  const started = performance.now();
  let results;
  if (message.mode === 'calculate') {
    const calculated = await Calculator.calculate(bundle, message.patients, options(message.period));
    results = calculated.results.map((result) => ({
      patientId: result.patientId,
      groups: (result.detailedResults ?? []).map((group) => ({ groupId: group.groupId, populations: populationsOf(group.populationResults) })),
    }));
  } else {
    const raw = await Calculator.calculateRaw(bundle, message.patients, options(message.period));
    results = Object.keys(raw.results.patientResults).map((patientId) => ({
      patientId,
      groups: (measure.group ?? []).map((group, index) => ({
        groupId: group.id ?? `population-group-${index + 1}`,
        populations: populationsOf(createPopulationValues(measure, group, raw.results.patientResults[patientId]).populationResults),
      })),
      ...(message.statements ? { statements: statementsOf(raw.results.patientResults[patientId]) } : {}),
    }));
  }
  return { results, engineMs: performance.now() - started, setupMs };
}

process.on('message', (message) => {
  if (message.type === 'measure') {
    measures.set(message.key, message.bundle);
    warmed.delete(message.key);
    return;
  }
  if (message.type !== 'run') return;
  run(message).then(
    (answer) => process.send({ id: message.id, ok: true, ...answer }),
    (error) => process.send({ id: message.id, ok: false, error: error instanceof Error ? error.stack || error.message : String(error) }),
  );
});

process.send({ type: 'ready' });
