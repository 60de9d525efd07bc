use super::*;

#[test]
fn every_route_of_the_document_has_a_scope_and_an_unlisted_path_is_none() {
    let document: serde_json::Value =
        serde_json::from_str(&crate::server::openapi(None).spec()).unwrap();
    // The operations' paths are the registry's, one for one.
    let mut documented: Vec<&String> = document["paths"].as_object().unwrap().keys().collect();
    let mut registered: Vec<String> = ROUTES.iter().map(|r| r.document_path()).collect();
    documented.sort();
    registered.sort();
    assert_eq!(documented, registered.iter().collect::<Vec<_>>());
    let soap = "/pegasus-3-0";
    for route in &ROUTES {
        let Some(Surface::Svc(found)) = surface_of(route.path, soap) else {
            panic!("{} is not a /svc route", route.path);
        };
        assert_eq!(found.scope, route.scope, "{}", route.path);
    }
    // A route somebody adds to the API but not to the registry is not served, nor any
    // path outside the table.
    for unlisted in [
        "/svc/newRoute",
        "/other",
        "/health/x",
        "/pegasus-3-0/x.soapEndpoint",
    ] {
        assert!(surface_of(unlisted, soap).is_none(), "{unlisted}");
    }
    let endpoint = "/pegasus-3-0/services/X.jsonEndpoint";
    assert!(matches!(
        surface_of(endpoint, soap),
        Some(Surface::Operations)
    ));
    assert!(matches!(
        surface_of("/admin/providers", soap),
        Some(Surface::Admin)
    ));
    assert!(matches!(
        surface_of("/metrics", soap),
        Some(Surface::Metrics)
    ));
}

/// The operation names a WSDL's port type lists.
fn wsdl_operations(wsdl: &str) -> Vec<String> {
    let port_type = wsdl.split("<wsdl:portType").nth(1).unwrap();
    let port_type = port_type.split("</wsdl:portType>").next().unwrap();
    port_type
        .split("<wsdl:operation name=\"")
        .skip(1)
        .map(|rest| rest.split('"').next().unwrap().to_owned())
        .collect()
}

#[test]
fn the_wsdls_list_the_operations_registry_in_its_order_each_once() {
    let registered = crate::server::soap::operation_names();
    let mut unique = registered.clone();
    unique.sort_unstable();
    unique.dedup();
    assert_eq!(unique.len(), registered.len(), "{registered:?}");
    for wsdl in [
        include_str!("../../../tests/golden/PartsToCatDLB.wsdl"),
        include_str!("../../../tests/golden/PartsToCatDLW.wsdl"),
    ] {
        assert_eq!(wsdl_operations(wsdl), registered);
    }
    use crate::server::soap::operation_access;
    assert_eq!(operation_access("getVersionInfo"), Some(Access::AnyCaller));
    assert_eq!(
        operation_access("addDynamicAPIKey"),
        Some(Access::OwnCredentials)
    );
    assert_eq!(
        operation_access("getArticles"),
        Some(Access::Scope(Scope::Read))
    );
    assert_eq!(operation_access("newOperation"), None);
}

#[test]
fn parameters_with_rules_of_their_own_are_routes_parameters() {
    for route in &ROUTES {
        for (name, _) in route.parameter_rules {
            let in_path = route.parameters().any(|p| p == *name);
            assert!(in_path || route.parameters().next().is_none(), "{name}");
        }
    }
    assert_eq!(
        parameter_rule("/svc/price/1/x/10", "is_kit"),
        Some("must be 0 or 1")
    );
    assert_eq!(parameter_rule("/svc/price/1/x/10", "ktype"), None);
}

#[test]
fn empty_segments_name_their_parameter() {
    assert_eq!(empty_path_parameter("/svc/e/k/"), Some("ktype"));
    assert_eq!(empty_path_parameter("/svc/e/k"), Some("ktype"));
    assert_eq!(empty_path_parameter("/svc/price//1/10"), Some("genart"));
    assert_eq!(empty_path_parameter("/svc/price/4000/1/"), Some("ktype"));
    assert_eq!(empty_path_parameter("/svc/price/4000//x"), Some("is_kit"));
    assert_eq!(
        empty_path_parameter("/svc/getCrossRefsOrArticle/"),
        Some("reference")
    );
    assert_eq!(empty_path_parameter("/svc/price/1/2/3/4"), None);
    assert_eq!(empty_path_parameter("/svc/nothing"), None);
}

#[test]
fn undecodable_segments_name_their_parameter() {
    use super::undecodable_path_parameter as bad;
    assert_eq!(bad("/svc/price/1/%FF/10"), Some("is_kit"));
    assert_eq!(bad("/svc/getArticlesByKtype/%C3%28"), Some("ktype"));
    assert_eq!(bad("/svc/getArticlesByKtype/%C3%A9"), None);
}

#[test]
fn a_route_is_found_by_its_whole_first_segment() {
    let name = |path: &str| route_of(path).map(Route::name);
    assert_eq!(
        name("/svc/getCrossRefsOrArticle/0%20986"),
        Some("getCrossRefsOrArticle")
    );
    assert_eq!(name("/svc/getVehicleMakes"), Some("getVehicleMakes"));
    assert_eq!(name("/svc/getVehicleMakes/"), Some("getVehicleMakes"));
    assert_eq!(name("/svc/e/k/10219"), Some("e"));
    for unlisted in [
        "/svc/",
        "/svc//x",
        "/svc/getCrossRefsOrArticl/x",
        "/svc/getCrossRefsOrArticleX/x",
        "/svc/getVehicleMake",
        "/svc/ex/k/1",
        "/getVehicleMakes",
    ] {
        assert_eq!(name(unlisted), None, "{unlisted}");
    }
}
