import { createHash, Hash } from 'node:crypto';

/** Namespace of generated ids (a v4 UUID chosen once; never change it, or every generated id moves). */
export const GENERATOR_NAMESPACE = '9b7e3c1a-5f24-4d8e-b0a6-2c71e9d4f835';

/** Generated patients' MRNs start with this; the fixture cohort's start with `VGL-`. */
export const GENERATED_MRN_PREFIX = 'SYN-';

const namespaceBytes = Buffer.from(GENERATOR_NAMESPACE.replace(/-/g, ''), 'hex');
const HEX = Array.from({ length: 256 }, (_, byte) => byte.toString(16).padStart(2, '0'));

/**
 * RFC 9562 version-5 UUIDs of names `seed/patient/kind/ordinal`: identical to `uuid`'s `v5()`, but
 * hashing with node's SHA-1 from a copy of a hash already fed the namespace, which is about three
 * times faster (it matters at six million ids; `docs/generator.md` has the numbers).
 */
export class IdFactory {
  private readonly base: Hash;

  constructor(private readonly seed: number) {
    this.base = createHash('sha1').update(namespaceBytes);
  }

  /** The id of a patient's record: `kind` names the table (or panel), `ordinal` counts within the patient. */
  id(patientIndex: number, kind: string, ordinal = 0): string {
    const digest = this.base.copy().update(`${this.seed}/${patientIndex}/${kind}/${ordinal}`).digest();
    digest[6] = (digest[6] & 0x0f) | 0x50;
    digest[8] = (digest[8] & 0x3f) | 0x80;
    let text = '';
    for (let i = 0; i < 16; i++) {
      if (i === 4 || i === 6 || i === 8 || i === 10) text += '-';
      text += HEX[digest[i]];
    }
    return text;
  }
}

/** `SYN-<seed>-<index, 1-based, 7 digits>`: unique per cohort, and never a fixture MRN (`VGL-…`). */
export function generatedMrn(seed: number, patientIndex: number): string {
  return `${GENERATED_MRN_PREFIX}${seed}-${String(patientIndex + 1).padStart(7, '0')}`;
}
