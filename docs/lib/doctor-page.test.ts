import { describe, expect, it } from 'vitest';
import { DOCTOR_CODES } from '../../src/core/doctor/diagnose.js';
import { loadDoctorVectors } from '../../vectors/load.js';
import { doctorHelpers } from './doctor-page.js';
import { renderTemplate } from './template.js';

const file = loadDoctorVectors();
const render = (t: string, f = file) => renderTemplate('t.md', t, doctorHelpers(f));

describe('the signature doctor page helpers', () => {
  it('lists every code with its fix', () => {
    const out = render('{{doctor-codes}}');
    for (const c of DOCTOR_CODES) expect(out).toContain(`| \`${c}\` |`);
    expect(out.split('\n')).toHaveLength(DOCTOR_CODES.length + 2);
  });

  it('gives every code a worked example whose diagnosis names that code, never the correct vectors', () => {
    const out = render('{{doctor-examples}}');
    for (const c of DOCTOR_CODES) {
      expect(out).toContain(`### ${c}\n`);
      expect(out).toContain(`"code": "${c}"`);
    }
    const sep = file.tests.find((t) => t.code === 'SEPARATOR_INSERTED');
    expect(out).toContain(`Doctor vector #${sep?.tcId ?? 0} of \`vectors/doctor.json\``);
    expect(out).toContain('--timestamp ');
    expect(render('{{doctor-count}}')).toBe(String(file.tests.length));
  });

  it('fails the build when a code has no vector, or a vector is not diagnosed as it says', () => {
    const without = { ...file, tests: file.tests.filter((t) => t.code !== 'JSON_RESERIALISED') };
    expect(() => render('{{doctor-examples}}', without)).toThrow(/no vector with code JSON_RESERIALISED/);
    const swap: Record<string, string> = { BODY_NOT_SIGNED: 'QUERY_NOT_SIGNED', QUERY_NOT_SIGNED: 'BODY_NOT_SIGNED' };
    const wrong = { ...file, tests: file.tests.map((t) => ({ ...t, code: swap[t.code] ?? t.code })) };
    expect(() => render('{{doctor-examples}}', wrong)).toThrow(
      /is diagnosed (BODY|QUERY)_NOT_SIGNED, not (QUERY|BODY)_NOT_SIGNED/,
    );
  });
});
