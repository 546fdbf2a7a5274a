import { Client } from 'pg';
import { Assignment } from './tool-reads';

/**
 * Random authorized requests: a fixed-seed sample of the cohort's patients, each with an active
 * clinician of one of its care teams (per team, the clinician on the fewest teams, then by name).
 * Every target replays the same sequence, so each sees the same patients in the same order.
 */
export async function samplePatients(url: string, size: number, seed: number): Promise<Assignment[]> {
  const client = new Client({ connectionString: url });
  await client.connect();
  try {
    const { rows } = await client.query<Assignment>(
      `WITH clinician AS (
         SELECT DISTINCT ON (m.care_team_id) m.care_team_id, u.username
         FROM care_team_members m JOIN staff_users u ON u.id = m.staff_user_id
         WHERE u.role = 'clinician' AND u.active
         ORDER BY m.care_team_id, (SELECT count(*) FROM care_team_members o WHERE o.staff_user_id = u.id), u.username
       ), assigned AS (
         SELECT DISTINCT ON (t.patient_id) t.patient_id::text AS "patientId", c.username
         FROM patient_care_teams t JOIN clinician c ON c.care_team_id = t.care_team_id
         ORDER BY t.patient_id, c.username
       )
       SELECT "patientId", username FROM assigned ORDER BY md5("patientId" || $1::text) LIMIT $2`,
      [String(seed), size],
    );
    if (rows.length === 0) throw new Error('no patient of the bench database has a care team with an active clinician');
    return rows;
  } finally {
    await client.end();
  }
}

/** An endless round-robin over the sample, restartable so every target starts at the same patient. */
export function cycle<T>(items: readonly T[]): { next(): T; reset(): void } {
  let index = 0;
  return {
    next: () => items[index++ % items.length],
    reset: () => {
      index = 0;
    },
  };
}

/** The patient with the most observations (the derived tools' worst case), with a clinician of its team. */
export async function heaviestPatient(url: string): Promise<Assignment & { observations: number }> {
  const client = new Client({ connectionString: url });
  await client.connect();
  try {
    const { rows } = await client.query<Assignment & { observations: string }>(
      `WITH heaviest AS (SELECT patient_id, count(*) AS n FROM observations GROUP BY patient_id ORDER BY n DESC, patient_id LIMIT 1)
       SELECT h.patient_id::text AS "patientId", h.n AS observations, min(u.username) AS username
       FROM heaviest h JOIN patient_care_teams t ON t.patient_id = h.patient_id
       JOIN care_team_members m ON m.care_team_id = t.care_team_id JOIN staff_users u ON u.id = m.staff_user_id AND u.role = 'clinician' AND u.active
       GROUP BY h.patient_id, h.n`,
    );
    if (!rows.length) throw new Error('no patient with observations and a clinician');
    return { ...rows[0], observations: Number(rows[0].observations) };
  } finally {
    await client.end();
  }
}
