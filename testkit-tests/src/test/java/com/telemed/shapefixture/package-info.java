/**
 * A small service in the platform's shape, for testkit's {@code shape.ServiceShape} rules ({@code ServiceShapeRulesTest}):
 * {@code order} uses {@code stock}; each rule's planted violation is a class of its own, named in the test, added to
 * the clean classes one at a time. Test sources only; no service is ever built from them.
 */
package com.telemed.shapefixture;
