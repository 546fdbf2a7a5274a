/**
 * Vigil's derived clinical engines: pure functions over a `PatientChart` (no Nest, no database, no
 * clock). Each tool that exposes them imports the module it needs; this index is for readers.
 */
export * from './care-gaps';
export * from './missing-data';
export * from './readmission';
