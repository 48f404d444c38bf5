import { useMemo, useState } from 'preact/hooks';
import { HeroConfigBody, type HeroConfig } from '../../../core/heroes/models.js';
import type { FieldErrors } from '../errors.js';
import { type HeroApi, heroClientFor, type Session } from '../session.js';
import { useCheckedAction, useRead } from '../ui/call.js';
import { Field, FormEnd } from '../ui/field.js';
import { ReadState } from '../ui/status.js';
import { Time } from '../ui/time.js';

/** One level's cost as typed: the price level whose tickets pay it, and how many. */
type CostRow = { ticketLevel: string; amount: string };

/**
 * Admins: the hero game's configuration (the hero base's `/heroes/config`): what heroes are, their maximum
 * level and what each level costs. Deployed, the hero base is another host, which the page's policy names.
 */
export function AdminHeroScreen({ session }: { session: Session }) {
  const hero = useMemo(() => heroClientFor(session), [session]);
  const config = useRead(() => hero.GET('/heroes/config'), []);
  const current = config.data;
  const unconfigured = config.code === 'hero.unconfigured';
  return (
    <>
      <section aria-labelledby="hero-config-title">
        <h2 id="hero-config-title">Current configuration</h2>
        {unconfigured ? (
          <p>The hero game is not configured on this stage: set its configuration below.</p>
        ) : (
          <ReadState loading={config.loading} error={config.error} what="the hero game's configuration" />
        )}
        {current && <CurrentConfig config={current} />}
      </section>
      {(current || unconfigured) && <SetConfig hero={hero} current={current} onSaved={config.reload} />}
    </>
  );
}

function CurrentConfig({ config }: { config: HeroConfig }) {
  return (
    <>
      <dl class="record">
        <dt>Hero NFT type</dt>
        <dd class="mono">{config.heroType}</dd>
        <dt>Maximum level</dt>
        <dd>{config.maxLevel}</dd>
        <dt>Project whose tickets pay upgrades</dt>
        <dd>{config.projectName}</dd>
        <dt>NFT details kept</dt>
        <dd>{config.nftCacheSeconds} s</dd>
        <dt>Updated</dt>
        <dd>
          <Time iso={config.updated_at} />
        </dd>
      </dl>
      <table>
        <caption>What reaching each level costs</caption>
        <thead>
          <tr>
            <th scope="col">Level</th>
            <th scope="col">Price level</th>
            <th scope="col">Tickets</th>
          </tr>
        </thead>
        <tbody>
          {config.levelCosts.map((cost) => (
            <tr key={cost.level}>
              <th scope="row">{cost.level}</th>
              <td>{cost.ticketLevel}</td>
              <td>{cost.amount}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </>
  );
}

/** A typed number; an empty field is not a number (so the schema names it), never 0. */
const numberOf = (typed: string) => (typed.trim() === '' ? Number.NaN : Number(typed));

/** The levels a configuration prices: every one from 2 to the maximum (none when the maximum is not a level). */
const pricedLevels = (maxLevel: string) => {
  const max = Number(maxLevel);
  return Number.isInteger(max) && max >= 2 && max <= 1000 ? Array.from({ length: max - 1 }, (_, i) => i + 2) : [];
};

function SetConfig({ hero, current, onSaved }: { hero: HeroApi; current: HeroConfig | undefined; onSaved: () => void }) {
  const [values, setValues] = useState({
    heroType: current?.heroType ?? '',
    maxLevel: String(current?.maxLevel ?? 10),
    projectName: current?.projectName ?? '',
    nftCacheSeconds: String(current?.nftCacheSeconds ?? 60),
  });
  const [costs, setCosts] = useState<Record<number, CostRow>>(() =>
    Object.fromEntries((current?.levelCosts ?? []).map((cost) => [cost.level, { ticketLevel: String(cost.ticketLevel), amount: String(cost.amount) }])),
  );
  const [fill, setFill] = useState<CostRow>({ ticketLevel: '1', amount: '' });
  const [done, setDone] = useState<string>();
  const save = useCheckedAction(HeroConfigBody, (body) => hero.PUT('/heroes/config', { body }));
  const set = (field: keyof typeof values) => (value: string) => setValues({ ...values, [field]: value });
  const levels = pricedLevels(values.maxLevel);
  const costOf = (level: number): CostRow => costs[level] ?? { ticketLevel: '', amount: '' };
  const setCost = (level: number, field: keyof CostRow) => (value: string) => setCosts({ ...costs, [level]: { ...costOf(level), [field]: value } });

  const submit = async (event: Event) => {
    event.preventDefault();
    setDone(undefined);
    const body = {
      heroType: values.heroType.trim(),
      maxLevel: numberOf(values.maxLevel),
      projectName: values.projectName.trim(),
      nftCacheSeconds: numberOf(values.nftCacheSeconds),
      levelCosts: levels.map((level) => ({ level, ticketLevel: numberOf(costOf(level).ticketLevel), amount: numberOf(costOf(level).amount) })),
    };
    if (await save.submit(body)) {
      setDone('The hero game configuration is saved.');
      onSaved();
    }
  };

  return (
    <section aria-labelledby="set-hero-config-title">
      <h2 id="set-hero-config-title">Set the configuration</h2>
      <p>It replaces the whole configuration. Heroes keep their levels; the next upgrade pays the cost set here.</p>
      <form onSubmit={submit} noValidate>
        <Field
          label="Hero NFT type"
          name="heroType"
          hint="The Move struct type of the hero NFTs, such as 0xabc::hero::Hero"
          value={values.heroType}
          onValue={set('heroType')}
          error={save.errors.heroType}
        />
        <Field
          label="Maximum level"
          name="maxLevel"
          inputMode="numeric"
          hint="2 to 1000"
          value={values.maxLevel}
          onValue={set('maxLevel')}
          error={save.errors.maxLevel}
        />
        <Field
          label="Project whose tickets pay upgrades"
          name="projectName"
          value={values.projectName}
          onValue={set('projectName')}
          error={save.errors.projectName}
        />
        <Field
          label="Seconds an NFT's details are kept"
          name="nftCacheSeconds"
          inputMode="numeric"
          hint="1 to 86400"
          value={values.nftCacheSeconds}
          onValue={set('nftCacheSeconds')}
          error={save.errors.nftCacheSeconds}
        />
        <LevelCosts
          levels={levels}
          costOf={costOf}
          setCost={setCost}
          errors={save.errors}
          fill={fill}
          setFill={setFill}
          onFill={() => setCosts(Object.fromEntries(levels.map((level) => [level, fill])))}
        />
        <FormEnd busy={save.busy} error={save.errors.form} done={done}>
          Save the configuration
        </FormEnd>
      </form>
    </section>
  );
}

/** The cost of every level from 2 to the maximum: a row each, and a way to give every level the same cost. */
function LevelCosts(props: {
  levels: number[];
  costOf: (level: number) => CostRow;
  setCost: (level: number, field: keyof CostRow) => (value: string) => void;
  errors: FieldErrors;
  fill: CostRow;
  setFill: (row: CostRow) => void;
  onFill: () => void;
}) {
  const { levels, costOf, setCost, errors, fill, setFill, onFill } = props;
  const rowError = (index: number, field: keyof CostRow) => errors[`levelCosts.${index}.${field}`];
  // A row's message is shown beside its field; the list's own (a level without a cost) above the rows.
  const rowInvalid = Object.keys(errors).some((key) => key.startsWith('levelCosts.'));
  const listError = rowInvalid ? 'Some costs are not valid: see the marked fields.' : errors.levelCosts;
  return (
    <fieldset aria-describedby={listError ? 'level-costs-error' : undefined}>
      <legend>Level costs</legend>
      {listError && (
        <p class="error" id="level-costs-error">
          {listError}
        </p>
      )}
      <div class="fill-all">
        <Field
          label="Price level for every level"
          name="fillTicketLevel"
          inputMode="numeric"
          value={fill.ticketLevel}
          onValue={(ticketLevel) => setFill({ ...fill, ticketLevel })}
        />
        <Field label="Tickets for every level" name="fillAmount" inputMode="numeric" value={fill.amount} onValue={(amount) => setFill({ ...fill, amount })} />
        <button type="button" onClick={onFill} disabled={levels.length === 0}>
          Give every level this cost
        </button>
      </div>
      {levels.length === 0 ? (
        <p>Set a maximum level from 2 to 1000 to price its levels.</p>
      ) : (
        <table>
          <caption class="visually-hidden">The cost of each level</caption>
          <thead>
            <tr>
              <th scope="col">Level</th>
              <th scope="col">Price level</th>
              <th scope="col">Tickets</th>
            </tr>
          </thead>
          <tbody>
            {levels.map((level, index) => (
              <tr key={level}>
                <th scope="row">{level}</th>
                <td>
                  <Field
                    label={`Price level for level ${level}`}
                    labelHidden
                    name={`ticketLevel-${level}`}
                    inputMode="numeric"
                    value={costOf(level).ticketLevel}
                    onValue={setCost(level, 'ticketLevel')}
                    error={rowError(index, 'ticketLevel')}
                  />
                </td>
                <td>
                  <Field
                    label={`Tickets for level ${level}`}
                    labelHidden
                    name={`amount-${level}`}
                    inputMode="numeric"
                    value={costOf(level).amount}
                    onValue={setCost(level, 'amount')}
                    error={rowError(index, 'amount')}
                  />
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </fieldset>
  );
}
