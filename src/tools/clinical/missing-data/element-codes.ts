import { defineValueSet, loinc } from '../shared/value-set';

/** Vital signs and social history as LOINC codes (the FHIR vital-signs profile codes plus panels). */
export const BLOOD_PRESSURE = defineValueSet({
  id: 'blood-pressure',
  title: 'Blood pressure',
  codes: loinc('85354-9', '55284-4', '8480-6', '8462-4'),
});
export const BODY_WEIGHT = defineValueSet({ id: 'body-weight', title: 'Body weight', codes: loinc('29463-7', '3141-9') });
export const BODY_HEIGHT = defineValueSet({ id: 'body-height', title: 'Body height', codes: loinc('8302-2', '3137-7') });
export const BMI = defineValueSet({ id: 'bmi', title: 'Body mass index', codes: loinc('39156-5') });
export const SMOKING_STATUS = defineValueSet({
  id: 'smoking-status',
  title: 'Tobacco smoking status',
  codes: loinc('72166-2'),
});

