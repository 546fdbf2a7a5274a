/**
 * The one line the command line prints when it cannot open its database: what is wrong and what to
 * do about it. It names the server, database and role from the URL and never its password, nor the
 * driver's message or stack (free text that may quote more); a stack says nothing an operator can
 * act on here. Undefined for any other failure, which keeps its fuller report.
 */
export function connectionFailure(error: unknown, url: string): string | undefined {
  let target: URL;
  try {
    target = new URL(url);
  } catch {
    return undefined;
  }
  const server = `${target.hostname}:${target.port || 5432}`;
  const role = decodeURIComponent(target.username);
  const database = decodeURIComponent(target.pathname.slice(1)) || role;
  switch (errorCode(error)) {
    case '3D000': {
      const createdb = ['createdb', '-h', target.hostname, '-p', target.port || '5432', ...(role ? ['-U', role] : []), database].join(' ');
      return `database "${database}" does not exist on ${server}: create it with \`${createdb}\`, then \`npm run db:migrate\` gives it the schema`;
    }
    case 'ECONNREFUSED':
      return `nothing accepts connections on ${server}: is Postgres running there?`;
    case 'ENOTFOUND':
    case 'EAI_AGAIN':
      return `the database host ${target.hostname} cannot be resolved`;
    case 'ETIMEDOUT':
      return `Postgres on ${server} did not answer in time`;
    case '28P01':
      return `Postgres on ${server} refused the password of role "${role}"`;
    case '28000':
      return `Postgres on ${server} does not let role "${role}" connect to database "${database}" (no such role, or pg_hba.conf refuses it)`;
    default:
      return undefined;
  }
}

/** The driver's error code; a refused connection to a name with several addresses is an AggregateError of them. */
function errorCode(error: unknown): string | undefined {
  const code = (error as { code?: unknown } | null)?.code;
  if (typeof code === 'string') return code;
  const first = error instanceof AggregateError ? (error.errors[0] as { code?: unknown } | undefined)?.code : undefined;
  return typeof first === 'string' ? first : undefined;
}
