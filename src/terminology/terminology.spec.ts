import {
  allValueSets,
  codesInSystem,
  codesOf,
  inAnyValueSet,
  inValueSet,
  LocalValueSet,
  nearMiss,
  TERMINOLOGY_SOURCE,
  UnknownValueSetError,
  valueSetInfo,
  VS,
} from '.';

const ICD10 = 'http://hl7.org/fhir/sid/icd-10-cm';
const SNOMED = 'http://snomed.info/sct';
const LOINC = 'http://loinc.org';
const CPT = 'http://www.ama-assn.org/go/cpt';
const coded = (codeSystem: string | null, code: string | null) => ({ codeSystem, code });

describe('terminology', () => {
  describe('the artifact', () => {
    it('holds the 85 value sets of the eCQM snapshot, and says where they come from', () => {
      expect(allValueSets()).toHaveLength(85);
      expect(TERMINOLOGY_SOURCE).toMatchObject({
        repository: 'cqframework/ecqm-content-qicore-2024',
        commit: '9ebd48ffebf2ed2489f3904cc8393ebf8979bfc9',
        date: '2025-01-15',
        licence: 'CC0 1.0',
        valueSetCount: 85,
      });
      expect(TERMINOLOGY_SOURCE.codeCount).toBe(allValueSets().reduce((sum, set) => sum + set.codeCount, 0));
    });

    it('resolves every CQL value set name to an OID in the artifact, and names every set', () => {
      const oids = new Set(allValueSets().map((set) => set.oid));
      expect(Object.keys(VS)).toHaveLength(85);
      for (const [name, oid] of Object.entries(VS)) {
        expect(oids.has(oid)).toBe(true);
        expect(valueSetInfo(oid).cqlNames).toContain(name);
      }
      for (const set of allValueSets()) expect(set.cqlNames.length).toBeGreaterThan(0);
    });

    it('is sorted by OID', () => {
      const oids = allValueSets().map((set) => set.oid);
      expect(oids).toEqual([...oids].sort());
    });

    it('describes a value set: name, title, version, expansion', () => {
      expect(valueSetInfo(VS['Essential Hypertension'])).toMatchObject({
        oid: '2.16.840.1.113883.3.464.1003.104.12.1011',
        name: 'EssentialHypertension',
        title: 'Essential Hypertension',
        version: '20240106',
        cqlNames: ['Essential Hypertension'],
        codeSystems: [ICD10, SNOMED],
      });
      // Two sets whose CQL name is not their VSAC title: cite the CQL name, show the title.
      expect(valueSetInfo(VS['Myocardial Infarction']).title).toBe('Initial Myocardial Infarction');
      expect(valueSetInfo(VS['Ischemic Heart Disease or Other Related Diagnoses']).title).toBe('Ischemic Heart Disease or Related Diagnoses');
    });

    it('keeps one entry per code where the source repeats them (Acute Inpatient lists each code five times)', () => {
      const acute = valueSetInfo(VS['Acute Inpatient']);
      expect(acute.codeCount).toBe(185);
      const cpt = codesInSystem(acute.oid, CPT).map((row) => row.code);
      expect(new Set(cpt).size).toBe(cpt.length);
    });
  });

  describe(inValueSet.name, () => {
    it('matches the exact system and code', () => {
      expect(inValueSet(coded(ICD10, 'E11.9'), VS.Diabetes)).toBe(true);
      expect(inValueSet(coded(SNOMED, '44054006'), VS.Diabetes)).toBe(true);
      expect(inValueSet(coded(LOINC, '4548-4'), VS['HbA1c Laboratory Test'])).toBe(true);
      expect(inValueSet(coded(ICD10, 'R73.03'), VS.Diabetes)).toBe(false); // prediabetes
    });

    it('never matches a code in another system, even when the string is a member', () => {
      expect(inValueSet(coded(SNOMED, 'E11.9'), VS.Diabetes)).toBe(false);
      expect(inValueSet(coded(ICD10, '44054006'), VS.Diabetes)).toBe(false);
      expect(inValueSet(coded(SNOMED, '4548-4'), VS['HbA1c Laboratory Test'])).toBe(false);
      // The ICD-10-CM OID instead of its FHIR URI is another system to a CQL engine too.
      expect(inValueSet(coded('urn:oid:2.16.840.1.113883.6.90', 'I10'), VS['Essential Hypertension'])).toBe(false);
    });

    it('compares ICD-10-CM codes with their dots, case and all, as written', () => {
      expect(inValueSet(coded(ICD10, 'I10'), VS['Essential Hypertension'])).toBe(true);
      expect(inValueSet(coded(ICD10, 'E119'), VS.Diabetes)).toBe(false);
      expect(inValueSet(coded(ICD10, 'e11.9'), VS.Diabetes)).toBe(false);
      expect(inValueSet(coded(ICD10, ' E11.9'), VS.Diabetes)).toBe(false);
      // A category is not its codes: no prefix matching.
      expect(inValueSet(coded(ICD10, 'E11'), VS.Diabetes)).toBe(false);
    });

    it('treats a missing value, system or code as not a member', () => {
      for (const value of [null, undefined, coded(null, 'E11.9'), coded(ICD10, null), coded('', ''), coded(ICD10, '')]) {
        expect(inValueSet(value, VS.Diabetes)).toBe(false);
      }
    });

    it('accepts cohort rows as they are', () => {
      const row = { id: 'x', codeSystem: SNOMED, code: '59621000', display: 'Essential hypertension (disorder)', onsetDate: null };
      expect(inValueSet(row, VS['Essential Hypertension'])).toBe(true);
    });

    it('throws for an OID that is not in the artifact, whatever the value', () => {
      expect(() => inValueSet(coded(ICD10, 'E11.9'), '2.16.840.1.113883.3.464.1003.103.12.9999')).toThrow(UnknownValueSetError);
      expect(() => inValueSet(null, 'Diabetes')).toThrow(UnknownValueSetError);
      expect(() => inValueSet(null, `http://cts.nlm.nih.gov/fhir/ValueSet/${VS.Diabetes}`)).toThrow(/pass the bare OID/);
    });
  });

  describe(inAnyValueSet.name, () => {
    const statins = [VS['Low Intensity Statin Therapy'], VS['Moderate Intensity Statin Therapy'], VS['High Intensity Statin Therapy']];
    const rxnorm = 'http://www.nlm.nih.gov/research/umls/rxnorm';

    it('is true when any set holds the value', () => {
      expect(inAnyValueSet(coded(rxnorm, '617311'), ...statins)).toBe(true); // atorvastatin 40 mg: high intensity
      expect(inAnyValueSet(coded(rxnorm, '312961'), ...statins)).toBe(true); // simvastatin 20 mg: moderate
      expect(inAnyValueSet(coded(rxnorm, '860975'), ...statins)).toBe(false); // metformin
      expect(inAnyValueSet(coded(rxnorm, '617311'))).toBe(false);
    });

    it('checks every OID, so an unknown one throws even after a match', () => {
      expect(() => inAnyValueSet(coded(rxnorm, '617311'), ...statins, 'no-such-oid')).toThrow(UnknownValueSetError);
    });
  });

  describe('local value sets', () => {
    const bloodPressure = new LocalValueSet('bp', 'Blood pressure', { [LOINC]: ['8480-6', '8462-4'] });

    it('match with the same exact rule, alone or with VSAC sets', () => {
      expect(inValueSet(coded(LOINC, '8480-6'), bloodPressure)).toBe(true);
      expect(inValueSet(coded(SNOMED, '8480-6'), bloodPressure)).toBe(false);
      expect(inAnyValueSet(coded(LOINC, '4548-4'), bloodPressure, VS['HbA1c Laboratory Test'])).toBe(true);
    });
  });

  describe(codesInSystem.name, () => {
    it('lists the members of one system, sorted, with their displays', () => {
      const icd10 = codesInSystem(VS['Essential Hypertension'], ICD10);
      expect(icd10).toEqual([{ code: 'I10', display: 'Essential (primary) hypertension' }]);
      const snomed = codesInSystem(VS.Diabetes, SNOMED).map((row) => row.code);
      expect(snomed).toEqual([...snomed].sort());
    });

    it('is empty for a system the set does not use (Mammography is LOINC only)', () => {
      expect(codesInSystem(VS.Mammography, CPT)).toEqual([]);
      expect(valueSetInfo(VS.Mammography).codeSystems).toEqual([LOINC]);
      expect(() => codesInSystem('nope', CPT)).toThrow(UnknownValueSetError);
    });
  });

  describe(codesOf.name, () => {
    it('lists every code of the sets, whatever the system, sorted and once each', () => {
      const local = new LocalValueSet('mixed', 'Mixed', { [LOINC]: ['8480-6', '4548-4'], [SNOMED]: ['8480-6'] });
      const codes = codesOf(local, VS['HbA1c Laboratory Test']);
      const vsac = valueSetInfo(VS['HbA1c Laboratory Test']).codeSystems.flatMap((system) => codesInSystem(VS['HbA1c Laboratory Test'], system).map((row) => row.code));
      expect(codes).toEqual([...new Set(['8480-6', '4548-4', ...vsac])].sort());
      expect(() => codesOf('nope')).toThrow(UnknownValueSetError);
    });
  });

  describe(nearMiss.name, () => {
    it('is null for members and for codes with no resemblance', () => {
      expect(nearMiss(coded(ICD10, 'E11.9'), VS.Diabetes)).toBeNull();
      expect(nearMiss(coded(ICD10, 'J45.40'), VS.Diabetes)).toBeNull();
      expect(nearMiss(null, VS.Diabetes)).toBeNull();
    });

    it('names the member a non-member resembles, and how', () => {
      expect(nearMiss(coded(ICD10, 'E119'), VS.Diabetes)).toEqual({
        kind: 'code-format',
        members: [{ system: ICD10, code: 'E11.9', display: 'Type 2 diabetes mellitus without complications' }],
      });
      expect(nearMiss(coded('urn:oid:2.16.840.1.113883.6.90', 'I10'), VS['Essential Hypertension'])).toMatchObject({
        kind: 'other-system',
        members: [{ system: ICD10, code: 'I10' }],
      });
      const category = nearMiss(coded(ICD10, 'E11'), VS.Diabetes)!;
      expect(category.kind).toBe('less-specific');
      expect(category.members).toHaveLength(5);
      expect(category.members.every((member) => member.code.startsWith('E11.'))).toBe(true);
    });
  });
});
