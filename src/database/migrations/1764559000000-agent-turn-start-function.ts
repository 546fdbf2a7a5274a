import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * `vigil_start_agent_turn`: a turn's start (the per-clinician hourly limit and the `running` row) as
 * one statement, so it is one round trip that commits by itself instead of a transaction of four
 * (BEGIN, the clinician's lock, the insert, COMMIT). The rule is the one `TurnRepository.start`
 * kept before: the clinician's advisory lock serialises their starts for the rest of the
 * transaction, and the count runs after it. In READ COMMITTED each statement of a VOLATILE plpgsql
 * function takes a fresh snapshot, so the count sees every turn committed by whoever held the lock
 * before; two concurrent requests cannot both take the hour's last turn. Returns NULL when the turn
 * started, else the whole seconds (at least 1) until the oldest turn of the hour leaves the window.
 * SECURITY INVOKER: it inserts with the caller's own rights on `agent_turns`.
 */
export class AgentTurnStartFunction1764559000000 implements MigrationInterface {
  name = 'AgentTurnStartFunction1764559000000';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`CREATE FUNCTION vigil_start_agent_turn(turn_id uuid, patient_id uuid, clinician_id uuid, question_hash text, per_hour integer)
RETURNS integer
LANGUAGE plpgsql VOLATILE
AS $$
DECLARE
  started_in_hour integer;
BEGIN
  PERFORM pg_advisory_xact_lock(hashtext('agent_turns:' || clinician_id::text));
  SELECT count(*) INTO started_in_hour FROM public.agent_turns t
    WHERE t.clinician_id = vigil_start_agent_turn.clinician_id AND t.created_at > now() - interval '1 hour';
  IF started_in_hour < per_hour THEN
    INSERT INTO public.agent_turns (id, patient_id, clinician_id, status, question_hash)
      VALUES (turn_id, patient_id, clinician_id, 'running', question_hash);
    RETURN NULL;
  END IF;
  RETURN (SELECT greatest(1, ceil(extract(epoch FROM min(t.created_at) + interval '1 hour' - now())))::integer FROM public.agent_turns t
    WHERE t.clinician_id = vigil_start_agent_turn.clinician_id AND t.created_at > now() - interval '1 hour');
END
$$`);
    // As every function of the schema: the application's role may call it, nobody else.
    await queryRunner.query(`REVOKE ALL ON FUNCTION vigil_start_agent_turn(uuid, uuid, uuid, text, integer) FROM PUBLIC`);
    await queryRunner.query(`GRANT EXECUTE ON FUNCTION vigil_start_agent_turn(uuid, uuid, uuid, text, integer) TO vigil_app`);
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP FUNCTION vigil_start_agent_turn(uuid, uuid, uuid, text, integer)`);
  }
}
