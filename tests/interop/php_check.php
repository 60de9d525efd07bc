<?php
// PHP's SoapClient against the live appliance, as TecDoc client code uses it: the WSDL,
// SOAP_SINGLE_ELEMENT_ARRAYS (a one-item list stays a list), every answer's `status` read
// instead of catching faults, and DLW's `arg0`.
//   php tests/interop/php_check.php BASE_URL PROVIDER KEY
[$base, $provider, $key] = array_slice($argv, 1, 3);
$brand = getenv('BRAND') ?: 'Parts';
$failed = 0;
function check(bool $ok, string $what): void {
    global $failed;
    if (!$ok) {
        $failed++;
        echo "FAIL $what\n";
    }
}

foreach (['DLB', 'DLW'] as $style) {
    $endpoint = "$base/ws/3.0/services/{$brand}ToCat$style.soapEndpoint";
    $client = new SoapClient("$endpoint?wsdl", [
        'features' => SOAP_SINGLE_ELEMENT_ARRAYS,
        'location' => "$endpoint?api_key=$key",
        'exceptions' => true,
        'cache_wsdl' => WSDL_CACHE_NONE,
    ]);
    $call = function (string $operation, array $fields) use ($client, $style, $provider) {
        $fields['provider'] = $provider;
        $body = $style === 'DLW' ? ['arg0' => $fields] : $fields;
        return $client->__soapCall($operation, [$body]);
    };

    $found = $call('getArticles', [
        'articleCountry' => 'DE', 'lang' => 'de', 'searchQuery' => '0986-478-379',
        'searchType' => 10, 'includeAll' => true, 'includeDataSupplierFacets' => true,
        'dataSupplierIds' => [], 'sort' => [],
    ]);
    check($found->status === 200, "$style getArticles: {$found->statusText}");
    check(count($found->articles) === 1, "$style getArticles: one article, as a list");
    $article = $found->articles[0];
    check($article->articleNumber === '0 986 478 379', "$style articleNumber");
    check(is_array($article->genericArticles) && $article->genericArticles[0]->genericArticleId > 0,
        "$style genericArticles is a list of records");
    check($article->oemNumbers[0]->mfrName !== '', "$style oemNumbers carry the maker");
    check($found->dataSupplierFacets->counts[0]->count === 1, "$style facet counts");

    $direct = $call('getArticleDirectSearchAllNumbersWithState', ['articleNumber' => '9N0 690 938 B',
        'numberType' => 10, 'searchExact' => true, 'sortType' => 1]);
    $oe = array_filter($direct->data->array,
        fn ($r) => $r->articleNo === '0 986 478 379' && $r->numberType === 1);
    check($direct->status === 200 && count($oe) === 1,
        "$style getArticleDirectSearchAllNumbersWithState by an OE number");

    $brands = $call('getAmBrands', ['lang' => 'en']);
    check($brands->status === 200 && count($brands->data->array) === 4, "$style getAmBrands");
    check($brands->data->array[0]->brandName === 'Veltra Brakes', "$style brand name");

    $vehicles = $call('getVehicleByIds3', ['carIds' => ['array' => [10219]], 'motorCodes' => true]);
    check($vehicles->status === 200 && $vehicles->data->array[0]->carId === 10219,
        "$style getVehicleByIds3");

    $id = $article->genericArticles[0]->legacyArticleId;
    $linked = $call('getArticleLinkedAllLinkingTarget4', ['articleId' => $id,
        'countryGroupFlag' => false, 'linkingTargetManuId' => 0, 'withMainArticles' => false]);
    check($linked->status === 200 && $id > 0
        && count($linked->data->array[0]->articleLinkages->array) > 0
        && $linked->data->array[0]->articleLinkages->array[0]->linked === true,
        "$style getArticleLinkedAllLinkingTarget4 by the legacyArticleId of getArticles");

    $link = $linked->data->array[0]->articleLinkages->array[0];
    $fits = $call('getArticleLinkedAllLinkingTargetsByIds3', ['articleId' => $id,
        'immediateAttributs' => true, 'linkedArticlePairs' => ['array' => [
            ['articleLinkId' => $link->articleLinkId, 'linkingTargetId' => $link->linkingTargetId]]]]);
    check($fits->status === 200 && count($fits->data->array) === 1
        && $fits->data->array[0]->linkedVehicles->array[0]->carId === $link->linkingTargetId
        && count($fits->data->array[0]->linkedArticleImmediateAttributs->array) > 0,
        "$style getArticleLinkedAllLinkingTargetsByIds3 by a link of getArticleLinkedAllLinkingTarget4");

    $plates = $call('getVehiclesByKeyNumberPlates', ['country' => 'DE',
        'keySystemNumber' => '0696/SZ7', 'keySystemType' => 0, 'details' => true]);
    check($plates->status === 200 && $plates->data->array[0]->carId === 10000
        && $plates->data->array[0]->vehicleDetails->registrationNumber === '0696/SZ7',
        "$style getVehiclesByKeyNumberPlates");

    // A bad field is an answer with its status, not a fault.
    $bad = $call('getArticles', ['searchQuery' => 'x', 'perPage' => 5000]);
    check($bad->status === 400 && str_contains($bad->statusText, 'perPage'),
        "$style a bad perPage answers status 400 naming it: {$bad->statusText}");
    echo "$style: PHP SoapClient read every answer\n";
}
echo $failed === 0 ? "php: all passed\n" : "php: $failed failed\n";
exit($failed === 0 ? 0 : 1);
