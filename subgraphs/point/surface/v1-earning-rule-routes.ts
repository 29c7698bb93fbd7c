import { Route, V1_BASE } from '../../../core/rest/route';
import { oneOf, ref, string } from '../../../core/rest/json-schema';
import { pathIdOf } from '../../../core/rest/path-ids';
import { rawObject } from './v1-custom-events';
import { EARNING_RULE_BODY, earningRuleListVariables, earningRuleOf, EarningRuleRecord, simulationOf } from './v1-earning-rules';

const BASE = `${V1_BASE}/loyalty/rules`;
const RULE = 'id name description trigger conditions effect limits priority stacks pendingDays isActive version budgetUsed createdAt updatedAt';
const NOT_FOUND = 'RULE_NOT_FOUND';

const ruleIdOf = (params: Record<string, string>) => ({ id: pathIdOf(params, 'rule') });

/** A route that runs one mutation of a rule named by the path and answers the rule. */
const ruleChange = (path: string, mutation: string, summary: string): Route => ({
  method: 'post',
  path: `${BASE}/:id/${path}`,
  document: `mutation V1${mutation[0].toUpperCase()}${mutation.slice(1)}($id: ID!) { ${mutation}(id: $id) { ${RULE} } }`,
  envelope: 'v1',
  scope: 'admin',
  notFound: NOT_FOUND,
  doc: { summary, response: ref('EarningRule') },
  variables: ({ params }) => ruleIdOf(params),
  payload: (data) => earningRuleOf(data[mutation] as EarningRuleRecord),
});

/**
 * Earning rules (issue 29; docs/decisions.md, the rule format): `read` lists, reads and runs dry runs;
 * `admin` writes. Rules are created inactive; a change of the definition is a new version.
 */
export const V1_EARNING_RULE_ROUTES: Route[] = [
  {
    method: 'get',
    path: BASE,
    document: `query V1EarningRules($page: Int, $limit: Int, $isActive: Boolean, $trigger: String) {
    earningRules(page: $page, limit: $limit, isActive: $isActive, trigger: $trigger) { meta { page limit total } data { ${RULE} } } }`,
    envelope: 'v1List',
    doc: { summary: 'Earning rules, newest first', query: { status: oneOf('active', 'inactive'), trigger: string({ description: 'purchase, booking.checked_in, customer.created, referral.completed or custom_event:<type>' }) }, response: ref('EarningRule') },
    variables: ({ query }) => earningRuleListVariables(query),
    payload: ({ earningRules }) => ({ ...earningRules, data: earningRules.data.map((rule: EarningRuleRecord) => earningRuleOf(rule)) }),
  },
  {
    method: 'post',
    path: BASE,
    document: `mutation V1CreateEarningRule($input: EarningRuleInput!) { createEarningRule(input: $input) { ${RULE} } }`,
    envelope: 'v1',
    status: 201,
    scope: 'admin',
    doc: { summary: 'Adds an earning rule, inactive, at version 1 (400 names every bad path of its conditions, effect and limits)', body: EARNING_RULE_BODY, response: ref('EarningRule') },
    payload: ({ createEarningRule }) => earningRuleOf(createEarningRule),
  },
  {
    method: 'post',
    path: `${BASE}/simulate`,
    document: `query V1SimulateEarning($input: EarningSimulationInput!) {
    simulateEarning(input: $input) { basePoints points applied { ruleId version name points } skipped { ruleId version name points reason } } }`,
    envelope: 'v1',
    scope: 'read',
    notFound: 'CUSTOMER_NOT_FOUND',
    doc: {
      summary: 'What a source would earn now, writing nothing: a purchase (amount, store, category) by its shop rule and the active rules, a custom event (attributes) or a check-in or creation by the active rules of its trigger',
      response: ref('EarningSimulation'),
    },
    variables: ({ body, rawBody }) => ({ input: { ...body, attributes: rawObject(rawBody, 'attributes') } }),
    payload: ({ simulateEarning }) => simulationOf(simulateEarning),
  },
  {
    method: 'get',
    path: `${BASE}/:id`,
    document: `query V1EarningRule($id: ID!) { earningRule(id: $id) { ${RULE} } }`,
    envelope: 'v1',
    notFound: NOT_FOUND,
    doc: { summary: 'One earning rule', response: ref('EarningRule') },
    variables: ({ params }) => ruleIdOf(params),
    payload: ({ earningRule }) => earningRuleOf(earningRule),
  },
  {
    method: 'patch',
    path: `${BASE}/:id`,
    document: `mutation V1UpdateEarningRule($id: ID!, $input: EarningRulePatch!) { updateEarningRule(id: $id, input: $input) { ${RULE} } }`,
    envelope: 'v1',
    scope: 'admin',
    notFound: NOT_FOUND,
    doc: {
      summary: 'Changes the given fields (null clears description, conditions and limits); a changed definition is a new version',
      body: { ...EARNING_RULE_BODY, required: undefined },
      response: ref('EarningRule'),
    },
    variables: ({ params, body }) => ({ ...ruleIdOf(params), input: body }),
    payload: ({ updateEarningRule }) => earningRuleOf(updateEarningRule),
  },
  {
    method: 'delete',
    path: `${BASE}/:id`,
    document: `mutation V1DeleteEarningRule($id: ID!) { deleteEarningRule(id: $id) { id } }`,
    envelope: 'v1',
    status: 204,
    scope: 'admin',
    notFound: NOT_FOUND,
    doc: { summary: 'Deletes an earning rule: it stops applying; its versions and what it earned stay' },
    variables: ({ params }) => ruleIdOf(params),
  },
  ruleChange('activate', 'activateEarningRule', 'Activates a rule: it applies from the next purchase, in every process'),
  ruleChange('deactivate', 'deactivateEarningRule', 'Deactivates a rule'),
];
