import { Locale, projectLocale } from '../../core/i18n';

class Tier {
  constructor(
    public id: string,
    public name_en: string | null,
    public name_th: string | null,
    public name_cn: string | null,
    public description_en: string | null,
    public description_th: string | null,
    public description_cn: string | null,
  ) {}
}
const NAMES = ['name', 'description'];
const tier = () => new Tier('t1', 'Gold', 'ทอง', '', 'Top tier', null, '顶级');

describe('the locale projection of localized texts', () => {
  it('returns every language when no locale is asked for', () => {
    const record = tier();
    expect(projectLocale(record, NAMES)).toBe(record);
  });

  it('keeps only the asked language, the other two null', () => {
    expect(projectLocale(tier(), NAMES, Locale.th)).toEqual(
      new Tier('t1', null, 'ทอง', null, null, 'Top tier', null),
    );
  });

  it('falls back to English where the asked language is empty or missing', () => {
    const projected = projectLocale(tier(), NAMES, Locale.cn);
    expect(projected).toMatchObject({ name_en: null, name_th: null, name_cn: 'Gold', description_en: null, description_th: null, description_cn: '顶级' });
  });

  it('gives null when neither the language nor English has a text', () => {
    const record = new Tier('t2', null, null, null, null, '', null);
    expect(projectLocale(record, NAMES, Locale.th)).toMatchObject({ name_en: null, name_th: null, name_cn: null, description_th: null });
  });

  it('keeps the record’s class and other fields, and leaves the record itself unchanged', () => {
    const record = tier();
    const projected = projectLocale(record, ['name'], Locale.en);
    expect(projected).toBeInstanceOf(Tier);
    expect(projected).toMatchObject({ id: 't1', name_en: 'Gold', name_th: null, name_cn: null, description_th: null, description_cn: '顶级' });
    expect(record).toEqual(tier());
  });
});
