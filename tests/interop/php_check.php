<?php
// PHP's SoapClient against the live appliance, as TecDoc client code uses it: the WSDL,
// SOAP_SINGLE_ELEMENT_ARRAYS (a one-item list stays a list), every answer's `status` read
// instead of catching faults, and DLW's `arg0`.
//   php tests/interop/php_check.php BASE_URL PROVIDER KEY
[$base, $provider, $key] = array_slice($argv, 1, 3);
$failed = 0;
function check(bool $ok, string $what): void {
    global $failed;
    if (!$ok) {
        $failed++;
        echo "FAIL $what\n";
    }
}

foreach (['DLB', 'DLW'] as $style) {
    $endpoint = "$base/ws/3.0/services/PartsToCat$style.soapEndpoint";
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

    $brands = $call('getAmBrands', ['lang' => 'en']);
    check($brands->status === 200 && count($brands->data->array) === 4, "$style getAmBrands");
    check($brands->data->array[0]->brandName === 'Veltra Brakes', "$style brand name");

    $vehicles = $call('getVehicleByIds3', ['carIds' => ['array' => [10219]], 'motorCodes' => true]);
    check($vehicles->status === 200 && $vehicles->data->array[0]->carId === 10219,
        "$style getVehicleByIds3");

    // A bad field is an answer with its status, not a fault.
    $bad = $call('getArticles', ['searchQuery' => 'x', 'perPage' => 5000]);
    check($bad->status === 400 && str_contains($bad->statusText, 'perPage'),
        "$style a bad perPage answers status 400 naming it: {$bad->statusText}");
    echo "$style: PHP SoapClient read every answer\n";
}
echo $failed === 0 ? "php: all passed\n" : "php: $failed failed\n";
exit($failed === 0 ? 0 : 1);
