import { getMetadataStorage } from 'class-validator';

type MetadataStorage = ReturnType<typeof getMetadataStorage>;
type ValidationMetadata = Parameters<MetadataStorage['addValidationMetadata']>[0];
type TargetMetadatas = MetadataStorage['getTargetValidationMetadatas'];

const MEMOIZED = Symbol('vigil.memoizedValidationMetadata');

/**
 * Makes class-validator look up a DTO class's rules once instead of on every validation. Its
 * `getTargetValidationMetadatas` walks every class that has rules (an `instanceof` test each, to
 * find the ones the DTO inherits from) and filters their rules, on every `validate` call: one per
 * REST tool request (the validation pipe), one per tool call of an agent turn (`validateDto`). The
 * answer depends only on the class, the options passed (always, strict groups, groups) and the rules
 * registered, so it is kept per class and options, and forgotten whenever a rule is registered (a
 * module that declares a DTO loaded later). The arrays it returns are only read by class-validator,
 * so handing the same one to every validation changes no outcome. Idempotent; it patches the one
 * storage class-validator keeps for the whole process.
 */
export function memoizeValidationMetadata(storage: MetadataStorage = getMetadataStorage()): void {
  const marked = storage as MetadataStorage & { [MEMOIZED]?: true };
  if (marked[MEMOIZED]) return;
  marked[MEMOIZED] = true;
  let byTarget = new Map<unknown, Map<string, ValidationMetadata[]>>();
  let grouped = new WeakMap<ValidationMetadata[], Record<string, ValidationMetadata[]>>();

  const lookUp = storage.getTargetValidationMetadatas.bind(storage);
  storage.getTargetValidationMetadatas = ((targetConstructor, targetSchema, always, strictGroups, groups) => {
    const options = JSON.stringify([targetSchema ?? null, always, strictGroups, groups ?? null]);
    let forTarget = byTarget.get(targetConstructor);
    if (!forTarget) byTarget.set(targetConstructor, (forTarget = new Map()));
    let metadatas = forTarget.get(options);
    if (!metadatas) forTarget.set(options, (metadatas = lookUp(targetConstructor, targetSchema, always, strictGroups, groups)));
    return metadatas;
  }) as TargetMetadatas;

  // Grouping by property name runs on each lookup's answer; the same answer groups the same way.
  const groupByPropertyName = storage.groupByPropertyName.bind(storage);
  storage.groupByPropertyName = (metadatas: ValidationMetadata[]) => {
    let byProperty = grouped.get(metadatas);
    if (!byProperty) grouped.set(metadatas, (byProperty = groupByPropertyName(metadatas)));
    return byProperty;
  };

  const addValidationMetadata = storage.addValidationMetadata.bind(storage);
  storage.addValidationMetadata = (metadata: ValidationMetadata) => {
    byTarget = new Map();
    grouped = new WeakMap();
    addValidationMetadata(metadata);
  };
}
