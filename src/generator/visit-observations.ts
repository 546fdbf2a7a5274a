import { Sex } from '../cohort/enum';
import { ChartWriter } from './chart-writer';
import * as values from './clinical-values';
import { PlannedEncounter } from './encounter-plan';
import { has, PatientProfile } from './profile';
import { Random } from './random';
import { DAY_MS, YEAR_MS } from './time';
import { LAB, SmokingStatus, VITAL } from './vocabulary';

/** eGFR results before this many years before the anchor use the MDRD code; later ones CKD-EPI (labs switched). */
const CKD_EPI_SINCE_YEARS = 3;

const SMOKING: Record<PatientProfile['smoking'], SmokingStatus> = {
  never: 'Never smoker',
  former: 'Former smoker',
  current: 'Current every day smoker',
};

/**
 * Vital signs and laboratory results of the visits, in time order. Labs follow a schedule per test
 * (HbA1c every 3–6 months for diabetics who keep appointments, lipids yearly for those who need
 * them, a basic metabolic panel with eGFR yearly or twice a year in CKD, urine albumin yearly for
 * most diabetics, …); a visit draws what is due. Acute care draws what the complaint calls for.
 */
export class VisitObservations {
  private readonly nextDue = new Map<string, number>();
  private lastHeightMs = -Infinity;

  constructor(
    private readonly writer: ChartWriter,
    private readonly random: Random,
    private readonly profile: PatientProfile,
    private readonly anchorMs: number,
    /** When the patient's statin began (or null): LDL falls after it. */
    private readonly statinStartMs: number | null,
  ) {}

  record(encounter: PlannedEncounter, encounterId: string): void {
    const at = encounter.startMs + this.random.int(5, 20) * 60_000;
    const acute = encounter.purpose === 'emergency' || encounter.purpose === 'inpatient' || encounter.purpose === 'observation';
    const moment: values.Moment = { at, acute, onStatin: this.statinStartMs !== null && this.statinStartMs < at };
    switch (encounter.purpose) {
      case 'checkup':
        this.vitals(moment, encounterId, { body: true, pulse: true });
        this.writer.smokingStatus(SMOKING[this.profile.smoking], at, encounterId);
        this.labsDue(moment, encounterId, true);
        return;
      case 'followup':
        this.vitals(moment, encounterId, { body: this.random.chance(0.6), pulse: this.random.chance(0.6) });
        if (this.oxygenMatters(at)) this.writer.vital(VITAL.oxygenSaturation, values.oxygenSaturation(this.random, this.profile, moment), at, encounterId);
        this.labsDue(moment, encounterId, false);
        return;
      case 'acute':
        this.vitals(moment, encounterId, { body: false, pulse: true });
        this.writer.vital(VITAL.temperature, values.temperature(this.random, this.random.chance(0.25)), at, encounterId);
        this.writer.vital(VITAL.oxygenSaturation, values.oxygenSaturation(this.random, this.profile, moment), at, encounterId);
        return;
      case 'home':
        this.vitals(moment, encounterId, { body: has(this.profile, 'heartFailure'), pulse: true });
        this.writer.vital(VITAL.oxygenSaturation, values.oxygenSaturation(this.random, this.profile, moment), at, encounterId);
        return;
      case 'emergency':
        this.acuteCare(encounter, moment, encounterId, false);
        return;
      case 'inpatient':
      case 'observation':
        this.acuteCare(encounter, moment, encounterId, true);
        this.stayDays(encounter, encounterId);
        return;
      default:
        // Video visits and screening studies record no vitals or labs here.
        return;
    }
  }

  private oxygenMatters(at: number): boolean {
    const since = (key: 'copd' | 'heartFailure') => (this.profile.onset[key] ?? Infinity) <= at;
    return since('copd') || since('heartFailure');
  }

  /** Blood pressure always; pulse, and weight with BMI (height when none in two years), as asked. */
  private vitals(moment: values.Moment, encounterId: string, options: { body: boolean; pulse: boolean }): void {
    const bp = values.bloodPressure(this.random, this.profile, moment);
    const panel = this.writer.nextId('panel');
    this.writer.vital(VITAL.systolic, bp.systolic, moment.at, encounterId, panel);
    this.writer.vital(VITAL.diastolic, bp.diastolic, moment.at, encounterId, panel);
    if (options.pulse) this.writer.vital(VITAL.heartRate, values.heartRate(this.random, this.profile, moment), moment.at, encounterId);
    if (!options.body) return;
    const weight = values.bodyWeight(this.random, this.profile);
    this.writer.vital(VITAL.weight, weight, moment.at, encounterId);
    if (moment.at - this.lastHeightMs > 2 * YEAR_MS) {
      this.writer.vital(VITAL.height, this.profile.heightCm, moment.at, encounterId);
      this.lastHeightMs = moment.at;
    }
    this.writer.vital(VITAL.bmi, values.bmiOf(weight, this.profile.heightCm), moment.at, encounterId);
  }

  /** Draws each scheduled test that is due; a check-up also screens (lipids by age, HbA1c now and then). */
  private labsDue(moment: values.Moment, encounterId: string, checkup: boolean): void {
    const { profile, random } = this;
    const at = moment.at;
    const since = (key: keyof PatientProfile['onset']) => (profile.onset[key] ?? Infinity) <= at;
    const keeps = profile.adherent;
    const diabetic = since('diabetes');

    if (diabetic && this.due('hba1c', at)) {
      this.hba1c(moment, encounterId);
      this.schedule('hba1c', at, keeps ? random.uniform(85, 185) : random.uniform(200, 480));
    } else if (!diabetic && checkup && (since('prediabetes') ? this.due('hba1c', at) : random.chance(0.1))) {
      this.hba1c(moment, encounterId);
      this.schedule('hba1c', at, random.uniform(300, 420));
    }

    const needsLipids = since('hyperlipidemia') || diabetic || since('coronaryDisease');
    if (needsLipids ? this.due('lipids', at) : checkup && profile.age >= 40 && this.due('lipids', at)) {
      this.lipidPanel(moment, encounterId);
      const interval = needsLipids ? (keeps ? random.uniform(300, 420) : random.uniform(480, 900)) : random.uniform(3, 5) * 365;
      this.schedule('lipids', at, interval);
    } else if (checkup && profile.age < 40 && random.chance(0.12)) {
      this.lipidPanel(moment, encounterId);
    }

    const ckd = since('ckd');
    const needsBmp = ckd || diabetic || since('hypertension') || since('heartFailure');
    if (needsBmp ? this.due('bmp', at) : checkup && (profile.age >= 40 || random.chance(0.3)) && this.due('bmp', at)) {
      this.metabolicPanel(moment, encounterId);
      this.schedule('bmp', at, ckd ? random.uniform(150, 200) : needsBmp ? random.uniform(300, 420) : random.uniform(1, 2) * 365);
    }

    if ((diabetic || ckd) && this.due('uacr', at)) {
      if (random.chance(keeps ? 0.75 : 0.3)) {
        this.writer.lab(LAB.urineAlbuminCreatinine, values.urineAlbuminCreatinine(random, profile), at, encounterId);
      }
      this.schedule('uacr', at, random.uniform(330, 400));
    }

    if ((checkup && random.chance(0.3)) || (since('anemia') && this.due('cbc', at))) {
      this.bloodCount(moment, encounterId, false);
      this.schedule('cbc', at, random.uniform(150, 250));
    }

    // One patient in seven chooses yearly stool tests (FIT) over colonoscopy; a fixed share, no extra draw.
    if (checkup && profile.age >= 45 && profile.age <= 75 && profile.index % 7 === 0 && this.due('fit', at)) {
      const positive = random.chance(0.06);
      this.writer.labText(LAB.fecalImmunochemical, positive ? 'Positive' : 'Negative', at, encounterId);
      this.schedule('fit', at, 340);
    }
  }

  private acuteCare(encounter: PlannedEncounter, moment: values.Moment, encounterId: string, admitted: boolean): void {
    const { random, profile, writer } = this;
    const at = moment.at;
    const infection = encounter.acute === 'infection';
    this.vitals(moment, encounterId, { body: admitted, pulse: true });
    writer.vital(VITAL.temperature, values.temperature(random, infection && random.chance(0.6)), at, encounterId);
    writer.vital(VITAL.oxygenSaturation, values.oxygenSaturation(random, profile, moment), at, encounterId);
    const cardiac = encounter.acute === 'cardiac';
    const breathing = encounter.acute === 'breathing';
    if (admitted || cardiac || breathing || encounter.acute === 'glucose' || random.chance(0.4)) this.metabolicPanel(moment, encounterId);
    if (admitted || infection || random.chance(0.5)) this.bloodCount(moment, encounterId, infection);
    if (cardiac && encounter.reason !== null && 'coding' in encounter.reason && encounter.reason.coding.code === 'R07.9') {
      writer.lab(LAB.troponinI, values.troponin(random), at, encounterId);
    }
    if (cardiac || (breathing && has(profile, 'heartFailure'))) writer.lab(LAB.ntProBnp, values.ntProBnp(random, profile, moment), at, encounterId);
    if (admitted && (profile.onset.diabetes ?? Infinity) <= at && this.due('hba1c', at - 60 * DAY_MS)) this.hba1c(moment, encounterId);
  }

  /** A blood pressure and heart rate each further day of a stay, and a metabolic panel before discharge. */
  private stayDays(encounter: PlannedEncounter, encounterId: string): void {
    const end = encounter.endMs as number;
    for (let day = 1; encounter.startMs + day * DAY_MS < end; day++) {
      const at = encounter.startMs + day * DAY_MS;
      this.vitals({ at, acute: true, onStatin: false }, encounterId, { body: false, pulse: true });
    }
    if (end - encounter.startMs >= 3 * DAY_MS) this.metabolicPanel({ at: end - 4 * 3_600_000, acute: false, onStatin: false }, encounterId);
  }

  private hba1c(moment: values.Moment, encounterId: string): void {
    this.writer.lab(LAB.hba1c, values.hba1c(this.random, this.profile, moment), moment.at, encounterId);
  }

  private lipidPanel(moment: values.Moment, encounterId: string): void {
    const result = values.lipids(this.random, this.profile, moment);
    const panel = this.writer.nextId('panel');
    this.writer.lab(LAB.cholesterolTotal, result.total, moment.at, encounterId, panel);
    this.writer.lab(LAB.hdl, result.hdl, moment.at, encounterId, panel);
    this.writer.lab(LAB.ldl, result.ldl, moment.at, encounterId, panel);
    this.writer.lab(LAB.triglycerides, result.triglycerides, moment.at, encounterId, panel);
  }

  /** Glucose, sodium, potassium, creatinine and the eGFR computed from it (one panel). */
  private metabolicPanel(moment: values.Moment, encounterId: string): void {
    const { random, profile, writer } = this;
    const panel = writer.nextId('panel');
    const egfr = values.egfr(random, profile, moment);
    const ageThen = Math.floor((moment.at - profile.birthMs) / YEAR_MS);
    const creatinineTest = profile.sex === Sex.Female ? LAB.creatinineFemale : LAB.creatinineMale;
    writer.lab(LAB.glucose, values.glucose(random, profile, moment), moment.at, encounterId, panel);
    writer.lab(LAB.sodium, values.sodium(random, profile, moment), moment.at, encounterId, panel);
    writer.lab(LAB.potassium, values.potassium(random, profile, moment), moment.at, encounterId, panel);
    writer.lab(creatinineTest, values.creatinineFor(egfr, profile.sex, ageThen), moment.at, encounterId, panel);
    const mdrd = moment.at < this.anchorMs - CKD_EPI_SINCE_YEARS * YEAR_MS;
    // About 1 % of eGFR results arrive with the bare unit some interfaces send (the tools keep variants apart).
    const unit = random.chance(0.01) ? 'mL/min' : undefined;
    writer.lab(mdrd ? LAB.egfrMdrd : LAB.egfrCkdEpi, egfr, moment.at, encounterId, panel, unit);
  }

  private bloodCount(moment: values.Moment, encounterId: string, infection: boolean): void {
    const { random, profile, writer } = this;
    const panel = writer.nextId('panel');
    const hemoglobinTest = profile.sex === Sex.Female ? LAB.hemoglobinFemale : LAB.hemoglobinMale;
    writer.lab(hemoglobinTest, values.hemoglobin(random, profile, moment), moment.at, encounterId, panel);
    writer.lab(LAB.leukocytes, values.leukocytes(random, profile, moment, infection), moment.at, encounterId, panel);
  }

  private due(test: string, at: number): boolean {
    return (this.nextDue.get(test) ?? -Infinity) <= at;
  }

  /** Next due `days` after `at`; never moves an existing due date earlier. */
  private schedule(test: string, at: number, days: number): void {
    const next = at + days * DAY_MS;
    if (next > (this.nextDue.get(test) ?? -Infinity)) this.nextDue.set(test, next);
  }
}
