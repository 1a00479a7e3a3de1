/**
 * The content of the two default evaluation forms: a tele-psychiatric assessment as a provider
 * would expect it (reason for referral, history, mental status examination, suicide and violence
 * risk with conditional follow-ups, substance use, collateral, disposition). Question names are
 * fixed here (not generated) so that demo evaluations and tests can name them.
 */
import type { QuestionItem, QuestionnaireItem } from '@crisis/forms';

const heading = (label: string): QuestionnaireItem => ({ type: 'heading', label });
const text = (name: string, label: string, required = true, showIf?: [string, string][]): QuestionItem => ({
  type: 'text', name, label, required, kind: 'general', ...(showIf ? { conditions: { kind: 'showIfAny', items: showIf.map(([question, answer]) => ({ question, answer })) } } : {}),
});
const choice = (type: 'radio' | 'checkbox', name: string, label: string, options: string[], required = true, showIf?: [string, string][]): QuestionItem => ({
  type, name, label, required, kind: 'general',
  options: options.map((o) => ({ key: o.toLowerCase().replace(/\W+/g, '_').replace(/^_|_$/g, ''), label: o })),
  ...(showIf ? { conditions: { kind: 'showIfAny', items: showIf.map(([question, answer]) => ({ question, answer })) } } : {}),
});
const yesNo = (name: string, label: string, required = true, showIf?: [string, string][]) => choice('radio', name, label, ['Yes', 'No'], required, showIf);
const medical = (system: QuestionItem['system'] & string, label: string, type: QuestionItem['type'], required = false, options?: QuestionItem['options']): QuestionItem => ({
  type, name: system, label, required, kind: 'medicalInformation', system, ...(options ? { options } : {}),
});
const YES_NO = [{ key: 'yes', label: 'Yes' }, { key: 'no', label: 'No' }];

const mentalStatus: QuestionnaireItem[] = [
  heading('Mental status examination'),
  choice('radio', 'appearance', 'Appearance', ['Well groomed', 'Disheveled', 'Bizarre']),
  choice('radio', 'behaviour', 'Behaviour', ['Cooperative', 'Guarded', 'Agitated', 'Withdrawn']),
  choice('checkbox', 'mood_affect', 'Mood and affect', ['Euthymic', 'Depressed', 'Anxious', 'Irritable', 'Euphoric', 'Flat affect']),
  choice('radio', 'thought_process', 'Thought process', ['Linear', 'Tangential', 'Circumstantial', 'Disorganized']),
  choice('checkbox', 'perception', 'Perceptual disturbances', ['None', 'Auditory hallucinations', 'Visual hallucinations', 'Command hallucinations']),
  text('command_content', 'Content of the command hallucinations', true, [['perception', 'command_hallucinations']]),
  choice('radio', 'orientation', 'Orientation', ['Oriented x4', 'Partially oriented', 'Disoriented']),
  choice('radio', 'insight_judgement', 'Insight and judgement', ['Good', 'Fair', 'Poor']),
];

const risk: QuestionnaireItem[] = [
  heading('Risk assessment'),
  medical('homicidalOrSuicidalIdeations', 'Homicidal or suicidal ideations', 'radio', true, YES_NO),
  yesNo('suicide_plan', 'Does the patient have a plan?', true, [['homicidalOrSuicidalIdeations', 'yes']]),
  text('suicide_plan_details', 'Describe the plan, the means and access to them', true, [['suicide_plan', 'yes']]),
  yesNo('prior_attempts', 'Prior suicide attempts'),
  text('prior_attempts_details', 'When and how (most recent first)', true, [['prior_attempts', 'yes']]),
  medical('violentBehavior', 'Violent behaviour', 'radio', true, [
    { key: 'Past', label: 'Past' }, { key: 'Present', label: 'Present' }, { key: 'PastAndPresent', label: 'Past and present' }, { key: 'None', label: 'None' },
  ]),
  choice('radio', 'cssrs_risk', 'C-SSRS screen risk level', ['Low', 'Moderate', 'High']),
];

const substances: QuestionnaireItem[] = [
  heading('Substance use'),
  choice('checkbox', 'substances', 'Substances used in the last 30 days', ['None', 'Alcohol', 'Opioids', 'Stimulants', 'Cannabis', 'Benzodiazepines', 'Other']),
  text('substance_details', 'Last use, amount and withdrawal symptoms', true, [
    ['substances', 'alcohol'], ['substances', 'opioids'], ['substances', 'stimulants'], ['substances', 'cannabis'], ['substances', 'benzodiazepines'], ['substances', 'other'],
  ]),
  medical('activeDetox', 'Active detox', 'radio', false, YES_NO),
];

export const DEFAULT_ASSESSMENT: QuestionnaireItem[] = [
  heading('Reason for referral'),
  text('reason_for_referral', 'Reason for referral and chief complaint'),
  text('present_illness', 'History of present illness'),
  medical('medicalPsychHistory', 'Past psychiatric and medical history', 'text'),
  medical('homeMedications', 'Current medications', 'text'),
  ...mentalStatus,
  ...risk,
  ...substances,
  heading('Collateral'),
  yesNo('collateral_obtained', 'Collateral information obtained'),
  text('collateral_summary', 'Source and summary of the collateral', true, [['collateral_obtained', 'yes']]),
  medical('currentLivingSituationType', 'Current living situation', 'radio', false, [
    { key: 'Home', label: 'Home' }, { key: 'GroupHome', label: 'Group home' }, { key: 'NursingFacility', label: 'Nursing facility' },
    { key: 'LongTermPsychiatricFacility', label: 'Long-term psychiatric facility' }, { key: 'Homeless', label: 'Homeless' },
  ]),
  heading('Disposition'),
  choice('radio', 'crisis_services', 'Crisis services considered', ['Mobile crisis team', 'Crisis stabilization unit', 'Not appropriate']),
  text('crisis_services_reason', 'Why crisis services are not appropriate', true, [['crisis_services', 'not_appropriate']]),
  text('disposition_plan', 'Disposition and safety plan'),
];

export const MERCYONE_ASSESSMENT: QuestionnaireItem[] = [
  heading('Presentation'),
  text('reason_for_referral', 'Reason for referral'),
  text('present_illness', 'History of present illness'),
  ...mentalStatus,
  ...risk,
  ...substances,
  heading('Disposition'),
  text('disposition_plan', 'Disposition and safety plan'),
];
