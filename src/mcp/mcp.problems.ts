import { HttpStatus } from '@nestjs/common';
import { ProblemException } from '../common/http/problem';

/** Unknown, ended, expired, another user's or another patient's session: one answer for all, so none can be told apart. */
export const sessionNotFound = () =>
  new ProblemException(HttpStatus.NOT_FOUND, 'mcp_session_not_found', 'Not Found', 'No such MCP session for you and this patient (it may have ended); open a new one.');
