/**
 * One door for an order link's state: only app/models/link-moves.server.ts
 * writes OrderLink's `state` and its reason, so every move is checked against
 * the machine (app/models/order-link-state.ts) and comes with its reason,
 * timeline row and lead event, and a reason rewritten where the link stands (a
 * recheck, an erasure) comes with its timeline row too. Anywhere else in app/
 * and scripts/ this rule refuses:
 *
 * - Prisma's `orderLink.create`, `createMany` or `upsert` (a link is born with a
 *   state), and `orderLink.update` / `updateMany` whose data names `state`,
 *   `reason` or `reasonText` (or spreads `reasonFields(...)`);
 * - SQL text that inserts into "OrderLink", or updates it with "state",
 *   "reason" or "reasonText" in its SET.
 *
 * It reads what is written in the file: data built elsewhere and passed by
 * name is not seen, which is why the door also owns the births.
 */
import { relative, resolve } from "node:path";

const root = resolve(import.meta.dirname, "..");

/** The door itself. */
export const DOOR = "app/models/link-moves.server.ts";

const WATCHED = ["app/", "scripts/"];
const BIRTHS = new Set(["create", "createMany", "createManyAndReturn", "upsert"]);
const UPDATES = new Set(["update", "updateMany", "updateManyAndReturn"]);

const UPDATE_SET =
  /\bUPDATE\s+"?OrderLink"?(?:\s+(?:AS\s+)?(?!SET\b)\w+)?\s+SET\s+([\s\S]*?)(?:\bWHERE\b|\bFROM\b|\bRETURNING\b|$)/gi;
const STATE_ASSIGNED = /(?:^|[\s,.])"?state"?\s*=/i;
const REASON_ASSIGNED = /(?:^|[\s,.])"?reason(?:Text)?"?\s*=/i;
const INSERT_LINK = /\bINSERT\s+INTO\s+"?OrderLink"?[\s(]/i;

/** Whether SQL text writes a link's state: an insert into OrderLink, or "state" in an update's SET. */
export function sqlWritesLinkState(text) {
  if (INSERT_LINK.test(text)) return true;
  for (const match of text.matchAll(UPDATE_SET)) if (STATE_ASSIGNED.test(match[1])) return true;
  return false;
}

/** Whether SQL text writes a link's reason: "reason" or "reasonText" in an update's SET. */
export function sqlWritesLinkReason(text) {
  for (const match of text.matchAll(UPDATE_SET)) if (REASON_ASSIGNED.test(match[1])) return true;
  return false;
}

const keyName = (property) =>
  property.type === "Property" && !property.computed
    ? property.key.type === "Identifier"
      ? property.key.name
      : String(property.key.value)
    : null;

const REASON_KEYS = new Set(["reason", "reasonText"]);
/** The helper that builds a reason's columns: spreading it writes the reason. */
const REASON_FIELDS = "reasonFields";

/**
 * Whether an object literal (with the object literals it spreads, either side of a condition) names one of
 * `keys`; `call` names a function whose result, spread or given as the data, counts as naming them.
 */
function names(node, keys, call) {
  if (!node) return false;
  if (node.type === "ConditionalExpression")
    return names(node.consequent, keys, call) || names(node.alternate, keys, call);
  if (node.type === "LogicalExpression") return names(node.left, keys, call) || names(node.right, keys, call);
  if (node.type === "CallExpression") return call !== undefined && calleeName(node.callee) === call;
  if (node.type !== "ObjectExpression") return false;
  return node.properties.some((p) =>
    p.type === "SpreadElement" ? names(p.argument, keys, call) : keys.has(keyName(p)),
  );
}

const calleeName = (callee) => (callee.type === "Identifier" ? callee.name : propertyName(callee));
const namesState = (node) => names(node, new Set(["state"]));
const namesReason = (node) => names(node, REASON_KEYS, REASON_FIELDS);

const propertyName = (member) =>
  member && member.type === "MemberExpression" && !member.computed && member.property.type === "Identifier"
    ? member.property.name
    : null;

const message = (path) =>
  `${path} writes an order link's state outside the door: move it through ${DOOR} (moveLink, moveItems), which checks the move and writes its reason, timeline row and lead event`;
const reasonMessage = (path) =>
  `${path} writes an order link's reason outside the door: rewrite it through ${DOOR} (rewordLink, or the move that goes with it), which writes its timeline row with it`;

const rule = {
  meta: {
    type: "problem",
    docs: {
      description: "an order link's state and reason are written only by its door (app/models/link-moves.server.ts)",
    },
    schema: [],
  },
  create(context) {
    const path = relative(root, context.filename).split("\\").join("/");
    if (path === DOOR || !WATCHED.some((p) => path.startsWith(p))) return {};
    const report = (node) => context.report({ node, message: message(path) });
    const reportReason = (node) => context.report({ node, message: reasonMessage(path) });
    const checkText = (node, text) => {
      if (sqlWritesLinkState(text)) report(node);
      else if (sqlWritesLinkReason(text)) reportReason(node);
    };
    return {
      CallExpression(node) {
        const method = propertyName(node.callee);
        if (!method || propertyName(node.callee.object) !== "orderLink") return;
        if (BIRTHS.has(method)) return report(node);
        if (!UPDATES.has(method)) return;
        const [argument] = node.arguments;
        const data = argument?.type === "ObjectExpression" && argument.properties.find((p) => keyName(p) === "data");
        if (data && namesState(data.value)) report(node);
        else if (data && namesReason(data.value)) reportReason(node);
      },
      Literal(node) {
        if (typeof node.value === "string") checkText(node, node.value);
      },
      TemplateLiteral(node) {
        checkText(node, node.quasis.map((q) => q.value.cooked ?? q.value.raw).join("?"));
      },
    };
  },
};

export default { rules: { "link-state-door": rule } };
