/**
 * Checks of the served API documents, for the simulators' black-box tests: the documents'
 * structure against the official OpenAPI 3.1 and AsyncAPI 3.0 schemas, and real answers and
 * WebSocket messages against the schemas the documents give.
 */
export { openApiProblems } from './openapi-structure';
export { asyncApiProblems, AsyncMessages } from './asyncapi-structure';
export {
  answerKey,
  fromFetch,
  fromNodeHeaders,
  OpenApiConformance,
  type Observed,
} from './openapi-conformance';
export { controlGuarded, operationsWhere, sweep, takesBody, type DocShape } from './openapi-model';
export { checkedClient, checkedUpgrade, concretePath, type CheckedCall, type Called } from './checked-client';
export { describeControlPlane, testCoverage, type ControlCasesOptions } from './control-plane-cases';
