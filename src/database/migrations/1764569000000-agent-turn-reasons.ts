import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * A turn that gives no statements keeps why: a code of the agent's fixed vocabulary (the sentence and
 * suggestions are the vocabulary's, rebuilt from the code when the turn is read). Null while a turn
 * runs, when it answered, and for every turn stored before this migration (their reason is unknown,
 * and nothing is guessed for them). The SQL is literal so this migration means the same thing
 * forever: a new code is a new migration, as a new status is.
 */
export class AgentTurnReasons1764569000000 implements MigrationInterface {
  name = 'AgentTurnReasons1764569000000';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "agent_turns" ADD "reason_code" text`);
    await queryRunner.query(
      `ALTER TABLE "agent_turns" ADD CONSTRAINT "CHK_agent_turns_reason_code" CHECK ("reason_code" IS NULL OR "reason_code" IN ('treatment_advice_not_given', 'outside_this_patient', 'not_a_question_about_the_record', 'question_declined', 'nothing_in_record_answers', 'not_in_what_the_agent_reads', 'answer_not_grounded', 'budget_exhausted', 'model_unavailable', 'model_reply_malformed', 'turn_failed'))`,
    );
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "agent_turns" DROP CONSTRAINT "CHK_agent_turns_reason_code"`);
    await queryRunner.query(`ALTER TABLE "agent_turns" DROP COLUMN "reason_code"`);
  }
}
