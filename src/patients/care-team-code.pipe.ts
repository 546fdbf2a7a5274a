import { HttpStatus, Injectable, PipeTransform } from '@nestjs/common';
import { ProblemException } from '../common/http/problem';

const CODE = /^[a-z0-9-]{1,64}$/;

/** A care-team code in the path: lower-case letters, digits and hyphens, as the teams are coded. */
@Injectable()
export class CareTeamCodePipe implements PipeTransform<string, string> {
  transform(value: string): string {
    if (!CODE.test(value)) {
      throw new ProblemException(HttpStatus.BAD_REQUEST, 'validation_failed', 'Invalid request', 'The care-team code is malformed.', [
        { field: 'code', reason: 'matches', message: 'code must be 1–64 lower-case letters, digits or hyphens' },
      ]);
    }
    return value;
  }
}
