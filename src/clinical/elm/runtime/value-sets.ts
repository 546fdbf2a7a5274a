import { createHash } from 'node:crypto';
import { Code } from 'cql-execution';

/**
 * The value-set expansions a measure uses, as the reference engine's code service reads a FHIR
 * ValueSet: the expansion's codes (nested `contains` included, abstract and inactive entries left
 * out), or, where a ValueSet has no expansion, its `compose` concepts. Membership is by code system
 * URI and code, exactly: the system URIs are the stewards', so editions never mix.
 */

export interface ValueSetResource {
  resourceType?: string;
  url?: string;
  version?: string;
  expansion?: { contains?: Contains[] };
  compose?: { include?: { system?: string; version?: string; concept?: { code?: string; display?: string }[] }[] };
}

interface Contains {
  system?: string;
  code?: string;
  version?: string;
  display?: string;
  abstract?: boolean;
  inactive?: boolean;
  contains?: Contains[];
}

export class Expansion {
  readonly keys: ReadonlySet<string>;
  private digest: string | undefined;

  constructor(
    readonly url: string,
    readonly codes: readonly Code[],
  ) {
    this.keys = new Set(codes.map((code) => codeKey(code.system, code.code)));
  }

  /**
   * A digest of all that membership reads (each code's system and code, `terminology.ts`): equal
   * for two expansions exactly when every test answers alike, whichever measure compiled them.
   */
  get membership(): string {
    this.digest ??= createHash('sha256')
      .update(JSON.stringify([...new Set(this.codes.map((code) => JSON.stringify([code.system, code.code])))].sort()))
      .digest('base64');
    return this.digest;
  }

  has(system: unknown, code: unknown): boolean {
    return typeof code === 'string' && this.keys.has(codeKey(system, code));
  }
}

export const codeKey = (system: unknown, code: unknown) => `${String(system)}|${String(code)}`;

export class ValueSetIndex {
  private readonly byUrl = new Map<string, Expansion>();

  constructor(resources: readonly ValueSetResource[]) {
    for (const resource of resources) {
      if (!resource.url) continue;
      this.byUrl.set(resource.url, new Expansion(resource.url, codesOf(resource)));
    }
  }

  get(url: string): Expansion | undefined {
    return this.byUrl.get(url);
  }

  get size(): number {
    return this.byUrl.size;
  }
}

function codesOf(resource: ValueSetResource): Code[] {
  const contains = resource.expansion?.contains ?? [];
  if (contains.length > 0) {
    const codes: Code[] = [];
    const walk = (items: Contains[]) => {
      for (const item of items) {
        if (!item.abstract && !item.inactive && item.code && item.system) codes.push(new Code(item.code, item.system, item.version, item.display));
        if (item.contains?.length) walk(item.contains);
      }
    };
    walk(contains);
    return codes;
  }
  return (resource.compose?.include ?? []).flatMap((include) =>
    (include.concept ?? []).filter((c) => c.code && include.system).map((c) => new Code(c.code!, include.system!, include.version, c.display)),
  );
}
