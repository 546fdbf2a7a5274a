import { HttpStatus, Injectable, PipeTransform } from '@nestjs/common';
import { CARE_TEAM_CODE, CARE_TEAM_CODE_RULE } from '../common/care-team-code';
import { ProblemException } from '../common/http/problem';

/** A care-team code in the path: lower-case letters, digits and hyphens, as the teams are coded. */
@Injectable()
export class CareTeamCodePipe implements PipeTransform<string, string> {
  transform(value: string): string {
    if (!CARE_TEAM_CODE.test(value)) {
      throw new ProblemException(HttpStatus.BAD_REQUEST, 'validation_failed', 'Invalid request', 'The care-team code is malformed.', [
        { field: 'code', reason: 'matches', message: `code must be ${CARE_TEAM_CODE_RULE}` },
      ]);
    }
    return value;
  }
}
